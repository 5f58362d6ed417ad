import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, POLL, screenshotNow } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 15 item 17 on a 390 px phone, in both languages: the Prediction folder list is not cut off in a nested
 * scroll box (every folder is on the page), and result cards show the whole photo (not cropped to the card).
 */
let e2e: E2e;
let page: Page;
const FOLDERS = Array.from({ length: 14 }, (_, i) => `Field trial ${i + 1} 试验田`);

beforeAll(async () => {
  e2e = await startE2e({ viewport: PHONE });
  page = e2e.page;
  for (const name of FOLDERS)
    expect((await e2e.server.api('/api/folders/', { method: 'POST', body: { name } })).status).toBe(201);
  // A wide photo: cropping to the card's box would cut its sides off.
  const up = await e2e.server.upload('/api/images/upload-files/', [
    { name: 'wide.png', bytes: pngBytes(11, 300, 100) },
  ]);
  expect(up.status).toBe(201);
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Phone check', image_ids: [up.body.uploaded[0].id] },
  });
  expect(task.status).toBe(201);
  for (let i = 0; i < 300 && (await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status === 'running'; i++)
    await new Promise((r) => setTimeout(r, 100));
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

/** The folder list's box, and whether every folder row lies inside it (nothing hidden behind a scroll). */
const folderList = () =>
  page.locator('.prediction-folders').evaluate((el) => {
    const box = el.getBoundingClientRect();
    const rows = [...el.querySelectorAll('.prediction-folder')].map((r) => r.getBoundingClientRect());
    return {
      scrolls: el.scrollHeight > el.clientHeight + 1,
      rows: rows.length,
      allInside: rows.every((r) => r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1),
    };
  });

describe.each(['en', 'zh'] as const)('a 390 px phone (%s)', (lang) => {
  it('lists every Prediction folder on the page, not in a cut-off scroll box', async () => {
    if (lang === 'zh') await e2e.setLanguage('zh');
    await e2e.goto('prediction');
    // All images, Uncategorised and the 14 folders.
    await expect.poll(() => page.locator('.prediction-folder').count(), POLL).toBe(2 + FOLDERS.length);
    expect(await folderList()).toEqual({ scrolls: false, rows: 2 + FOLDERS.length, allInside: true });
    await page.locator('.prediction-folder').last().scrollIntoViewIfNeeded();
    expect(await page.locator('.prediction-folder').last().isVisible()).toBe(true);
    await screenshotNow(page, `prediction-folders-${lang}-390`, true);
  });

  it('shows the whole photo on a result card', async () => {
    await e2e.goto('results');
    const img = page.getByTestId('result-card').first().locator('img');
    await img.waitFor();
    await expect
      .poll(
        () => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0),
        POLL,
      )
      .toBe(true);
    const fit = await img.evaluate((el) => {
      const i = el as HTMLImageElement;
      const box = i.getBoundingClientRect();
      return {
        objectFit: getComputedStyle(i).objectFit,
        boxWidth: box.width,
        natural: i.naturalWidth / i.naturalHeight,
      };
    });
    expect(fit.objectFit).toBe('contain');
    expect(fit.boxWidth).toBeGreaterThan(100);
    expect(fit.natural).toBeCloseTo(3, 0);
    await page
      .getByTestId('result-card')
      .first()
      .screenshot({ path: `/tmp/d15/result-card-${lang}-390.png` });
  });
});
