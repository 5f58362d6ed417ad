import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { openUploadSettings, toast, type PickedFile } from './helpers/images-ui';
import { pngBytes } from './helpers/test-files';

/**
 * The Images screen on a 390 px phone (issue 25 item 6), in a real browser against the real server: the first
 * photo shows high on the screen (the toolbar is one row; view, sort, grouping, the field filter and select-all
 * are in a drawer), Upload takes several photos at once and its menu a ZIP, and the selection's actions show once
 * a photo is selected; in English and in Chinese.
 */
let e2e: E2e;
let page: Page;

const png = (name: string, seed: number): PickedFile => ({ name, mimeType: 'image/png', buffer: pngBytes(seed) });
const cards = () => page.locator('[data-testid="image-card"]');

/** Where the first photo's card starts, in px from the top of the page (as the screen shows it unscrolled). */
const firstCardTop = () =>
  cards()
    .first()
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
/** Screenshots of the screen as it opens (checking a box may have scrolled the page). */
const top = () => page.evaluate(() => window.scrollTo(0, 0));

beforeAll(async () => {
  e2e = await startE2e({ viewport: PHONE });
  page = e2e.page;
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    Array.from({ length: 4 }, (_, i) => ({ name: `TME419_${i + 1}_7d_R1.png`, bytes: pngBytes(10 + i) })),
  );
  expect(up.status).toBe(201);
  // Fields in the library: the grouping and the field filter are offered (the longest toolbar there is).
  const ids = up.body.uploaded.map((i: { id: number }) => i.id);
  const parsed = await e2e.server.api('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: ids, apply: true },
  });
  expect(parsed.status).toBe(200);
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

describe('Images on a 390 px phone', () => {
  it('shows the first photo high on the screen', async () => {
    await e2e.goto('images');
    await cards().first().waitFor();
    // The header is 64 px; the folder, one toolbar row, the count and the day's heading fit in the next 240.
    await expect.poll(firstCardTop, POLL).toBeLessThan(300);
    expect(await page.getByTestId('images-options').isVisible()).toBe(true);
    expect(await page.getByTestId('sort-select').count()).toBe(0);
    await screenshot(page, 'images-phone-en-390', false);
  });

  it('picks several photos at once, or a ZIP from the Upload menu', async () => {
    const upload = page.getByTestId('upload-multiple');
    expect(await upload.textContent()).toBe('Upload');
    let dialog = await openUploadSettings(page, 'multiple');
    const input = dialog.getByTestId('upload-input');
    expect(await input.evaluate((el: HTMLInputElement) => el.multiple)).toBe(true);
    await input.setInputFiles([png('phone_1.png', 31), png('phone_2.png', 32), png('phone_3.png', 33)]);
    await toast(page, '3 images uploaded successfully');
    await expect.poll(() => cards().count(), POLL).toBe(7);
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });

    dialog = await openUploadSettings(page, 'zip');
    expect(await dialog.locator('.ant-modal-title').textContent()).toBe('Upload a ZIP archive');
    expect(await dialog.getByTestId('upload-input').getAttribute('accept')).toContain('.zip');
    await screenshot(page, 'images-phone-zip-en-390', false);
    await escapeDialog(page, dialog);
  });

  it('keeps the view, sort, grouping, field filter and select-all in a drawer; selecting shows the actions', async () => {
    await page.getByTestId('images-options').click();
    const drawer = page.locator('.images-options-drawer');
    await drawer.getByTestId('sort-select').waitFor();
    expect(await drawer.getByTestId('view-toggle').isVisible()).toBe(true);
    expect(await drawer.getByTestId('group-by-select').isVisible()).toBe(true);
    expect(await drawer.getByTestId('metadata-filter').isVisible()).toBe(true);
    await screenshot(page, 'images-phone-options-en-390', false);
    await drawer.getByTestId('view-toggle').getByTitle('List view').click();
    await page.locator('[data-testid="image-browser"][data-view="list"]').waitFor();
    await drawer.getByTestId('view-toggle').getByTitle('Grid view').click();
    await page.locator('[data-testid="image-browser"][data-view="grid"]').waitFor();
    await page.keyboard.press('Escape');
    await drawer.locator('.ant-drawer-content').waitFor({ state: 'hidden' });

    expect(await page.getByTestId('selection-bar').count()).toBe(0);
    await cards().first().locator('input[type="checkbox"]').check();
    const bar = page.getByTestId('selection-bar');
    await bar.waitFor();
    expect(await bar.getByTestId('selected-count').textContent()).toBe('1 selected');
    // The actions in a word each: they fit one row beside the count.
    expect(await bar.getByTestId('move-selected').textContent()).toBe('Move');
    expect(await bar.getByTestId('delete-selected').isEnabled()).toBe(true);
    await top();
    await screenshot(page, 'images-phone-selected-en-390', false);
    await cards().first().locator('input[type="checkbox"]').uncheck();
    await bar.waitFor({ state: 'detached' });
  });

  it('the same in Chinese', async () => {
    await e2e.setLanguage('zh');
    await expect.poll(() => page.getByTestId('upload-multiple').textContent(), POLL).toBe('上传');
    await expect.poll(firstCardTop, POLL).toBeLessThan(300);
    await top();
    await screenshot(page, 'images-phone-zh-390', false);
    await page.getByTestId('upload-menu').click();
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
    await expect
      .poll(() => menu.locator('.ant-dropdown-menu-title-content').allTextContents(), POLL)
      .toEqual(['批量上传', '单张照片', '上传 ZIP']);
    await escapeDialog(page, menu);
    await page.getByTestId('images-options').click();
    const drawer = page.locator('.images-options-drawer');
    await expect.poll(() => drawer.locator('.ant-drawer-title').textContent(), POLL).toBe('显示、排序与筛选');
    await screenshot(page, 'images-phone-options-zh-390', false);
    await page.keyboard.press('Escape');
    await drawer.locator('.ant-drawer-content').waitFor({ state: 'hidden' });
    // Wide screens keep the full toolbar.
    await page.setViewportSize(DESKTOP);
    await page.getByTestId('sort-select').waitFor();
    expect(await page.getByTestId('images-options').count()).toBe(0);
    await screenshot(page, 'images-toolbar-zh-1440', false);
    await e2e.setLanguage('en');
    await screenshot(page, 'images-toolbar-en-1440', false);
    await page.setViewportSize(PHONE);
  });
});
