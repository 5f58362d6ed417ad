import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, escapeDialog, PHONE, POLL } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 26, item 5 in a real browser against the real server: the page's Content-Security-Policy allows no
 * inline style or script ('unsafe-inline'), and yet every screen, a dialog, a drawer, dropdowns, the image
 * preview and the label painter load without one CSP violation and look as designed (Ant Design's CSS-in-JS
 * styles carry the page's nonce). Violations are recorded by a listener the page gets before its own scripts.
 */
let e2e: E2e;
let page: Page;
const photoName = 'csp_leaf.png';

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
}

declare global {
  interface Window {
    __cspViolations?: Violation[];
  }
}

const violations = (): Promise<Violation[]> => page.evaluate(() => window.__cspViolations ?? []);

/** The directives of a CSP header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The nonce a CSP header allows styles with. */
function styleNonce(csp: string): string | undefined {
  const value = directives(csp)
    .get('style-src')
    ?.find((v) => v.startsWith("'nonce-"));
  return value?.slice("'nonce-".length, -1);
}

/** The page's primary colour (apps/web/src/app/theme.ts, #2f7d3b), as getComputedStyle writes it. */
const PRIMARY = 'rgb(47, 125, 59)';

/** The background colour of the first visible primary button. */
const primaryButtonBackground = () =>
  page
    .locator('.ant-btn-primary:visible')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

async function loadPage(): Promise<Response> {
  const response = await page.goto(e2e.server.url + '/');
  await page.locator('.app-header').waitFor();
  return response!;
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const up = await e2e.server.upload('/api/images/upload-files/', [{ name: photoName, bytes: pngBytes(3, 640, 480) }], {
    check_duplicate: '0',
  });
  expect(up.status).toBe(201);
  const imageId = up.body.uploaded[0].id as number;
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'CSP trial', image_ids: [imageId] },
  });
  expect(task.status).toBe(201);
  // The task ends (the Results screen then has a result to open).
  const deadline = Date.now() + 120_000;
  while ((await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error('the task did not end');
    await new Promise((r) => setTimeout(r, 200));
  }
  // Registered before any script of the page runs (Playwright's init scripts are not subject to the page's CSP).
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations!.push({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        sample: e.sample,
        source: `${e.sourceFile}:${e.lineNumber}`,
      });
    });
  });
}, 180_000);

afterAll(async () => {
  await e2e?.close();
});

describe('strict Content-Security-Policy (e2e)', () => {
  it('the page is served with no unsafe-inline and a fresh nonce each time, the one its meta holds', async () => {
    const first = await loadPage();
    const csp = first.headers()['content-security-policy'] ?? '';
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const d = directives(csp);
    expect(d.get('style-src')).toContain("'self'");
    expect(d.get('script-src')).toContain("'self'");
    // Images only from this server, data: and blob: (no object store configured here): no http: or https:.
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    const nonce = styleNonce(csp);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(d.get('script-src')).toContain(`'nonce-${nonce}'`);
    // The browser hides the attribute once a CSP applies; the property holds it.
    const metaNonce = () =>
      page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce);
    expect(await metaNonce()).toBe(nonce);
    expect(first.headers()['permissions-policy']).toContain('camera=()');

    const second = await loadPage();
    const again = styleNonce(second.headers()['content-security-policy'] ?? '');
    expect(again).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(again).not.toBe(nonce);
    expect(await metaNonce()).toBe(again);
  });

  it('every screen, dialogs, a form, drawers, dropdowns, the preview and the painter: styled, no CSP violation', async () => {
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (/Content.Security.Policy|Permissions-Policy/i.test(msg.text())) problems.push(msg.text());
    });
    await page.setViewportSize(DESKTOP);
    const csp = (await loadPage()).headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/style-src 'self' 'nonce-[^']+'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    // Styled: Ant Design's own styles applied (the header's menu laid out, a primary button in the theme's green).
    await expect
      .poll(() => page.getByTestId('main-nav').evaluate((el) => getComputedStyle(el).display), POLL)
      .toBe('flex');
    await expect.poll(primaryButtonBackground, POLL).toBe(PRIMARY);
    expect(await violations(), 'first load').toEqual([]);

    for (const section of [
      'images',
      'folders',
      'prediction',
      'tasks',
      'results',
      'models',
      'samples',
      'connection',
      'home',
    ]) {
      await e2e.goto(section);
      expect(await violations(), section).toEqual([]);
    }
    await expect.poll(primaryButtonBackground, POLL).toBe(PRIMARY);

    // A form in a dialog (a text area), the message that confirms it, the new folder's card.
    await e2e.goto('folders');
    await page.getByTestId('create-folder').first().click();
    await page.getByTestId('folder-name-input').fill('CSP trial plots');
    await page.getByTestId('folder-description-input').fill('Plots 1-12, harvest week 3');
    await page.getByTestId('folder-form-ok').click();
    await page.locator('.ant-message-notice').filter({ hasText: 'Folder created' }).waitFor();
    await page.getByTestId('folder-card').filter({ hasText: 'CSP trial plots' }).waitFor();
    expect(await violations(), 'folder form').toEqual([]);

    // A dialog with a select's dropdown (the upload dialog); the dialog locks the page's scrolling.
    await e2e.goto('images');
    await page.getByTestId('upload-single').click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.waitFor();
    await page.getByTestId('upload-folder-select').click();
    await page.locator('.ant-select-dropdown:visible').waitFor();
    expect(await dialog.evaluate((el) => getComputedStyle(el).position)).not.toBe('static');
    // The scroll lock's own <style> applied: the page behind the dialog does not scroll.
    expect(await page.evaluate(() => getComputedStyle(document.body).overflowY)).toBe('hidden');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await violations(), 'upload dialog').toEqual([]);

    // The language menu (a dropdown), there and back.
    await e2e.setLanguage('zh');
    await e2e.setLanguage('en');
    expect(await violations(), 'language menu').toEqual([]);

    // The photo's preview and the label painter on it (canvases, a full-screen layer).
    await page.locator(`[data-testid="image-card"][data-image-name="${photoName}"] .image-card-thumb`).click();
    await page.getByTestId('image-preview').waitFor();
    await page.getByTestId('preview-paint-labels').click();
    await page.getByTestId('label-painter').getByTestId('label-canvas').waitFor();
    await page.getByTestId('label-painter').getByTestId('close-painter').click();
    await page.getByTestId('label-painter').waitFor({ state: 'detached' });
    await escapeDialog(page, page.getByTestId('image-preview'));
    expect(await violations(), 'preview and painter').toEqual([]);

    // A result's detail with its photo.
    await e2e.goto('results');
    await page.getByTestId('result-card').first().click();
    await page.getByTestId('result-detail').waitFor();
    await escapeDialog(page, page.getByTestId('result-detail'));
    expect(await violations(), 'result detail').toEqual([]);

    // The narrow screen's navigation drawer (e2e.goto opens it and picks the section there).
    await page.setViewportSize(PHONE);
    await e2e.goto('images');
    await expect.poll(primaryButtonBackground, POLL).toBe(PRIMARY);
    expect(await violations(), 'navigation drawer').toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the API reference page (Swagger UI) under its own strict CSP: styled, no violation', async () => {
    await page.setViewportSize(DESKTOP);
    const response = await page.goto(e2e.server.url + '/api/docs/');
    const csp = directives(response!.headers()['content-security-policy'] ?? '');
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    // An operation opened (its parameters and responses drawn), its method badge in Swagger UI's colours.
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(
      await page
        .locator('.opblock-summary-method')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).not.toBe('rgba(0, 0, 0, 0)');
    expect(await violations(), 'API reference').toEqual([]);
  });
});
