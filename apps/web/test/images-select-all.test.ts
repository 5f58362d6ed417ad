import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { expectSidebarCount, toast } from './helpers/images-ui';
import { pngBytes } from './helpers/test-files';

/** More images than the first page (200) of the grid: "select all" must reach those not loaded yet. */
const IN_FOLDER = 230;
const LOOSE = 4;

describe('images screen: select all (e2e)', () => {
  let e2e: E2e;
  let folderId = 0;
  beforeAll(async () => {
    e2e = await startE2e();
    const folder = await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Bulk plot' } });
    expect(folder.status).toBe(201);
    folderId = folder.body.id;
    for (let first = 0; first < IN_FOLDER; first += 50) {
      const files = Array.from({ length: Math.min(50, IN_FOLDER - first) }, (_, i) => ({
        name: `bulk-${first + i}.png`,
        bytes: pngBytes(1000 + first + i, 24, 18),
      }));
      const up = await e2e.server.upload('/api/images/upload-files/', files, {
        folder_id: String(folderId),
        check_duplicate: '0',
      });
      expect(up.status).toBe(201);
    }
    const loose = Array.from({ length: LOOSE }, (_, i) => ({
      name: `loose-${i}.png`,
      bytes: pngBytes(5000 + i, 24, 18),
    }));
    expect((await e2e.server.upload('/api/images/upload-files/', loose, { check_duplicate: '0' })).status).toBe(201);
    await e2e.open();
    await e2e.goto('images');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('selects every image of the folder, also those not scrolled into view, and moves them all', async () => {
    const { page } = e2e;
    await page.locator('[data-testid="sidebar-entry"]').filter({ hasText: 'Bulk plot' }).click();
    await expect
      .poll(() => page.getByTestId('images-total').textContent(), POLL)
      .toMatch(new RegExp(`\\b${IN_FOLDER}\\b`));
    await page.getByTestId('select-all').click();
    await expect.poll(() => page.getByTestId('selected-count').textContent(), POLL).toBe(`${IN_FOLDER} selected`);
    await expect.poll(() => page.getByTestId('select-all').textContent(), POLL).toBe('Deselect all');

    await page.getByTestId('move-selected').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('move-folders') });
    await dialog.waitFor();
    await dialog.locator('label.ant-radio-wrapper').first().locator('input').check();
    await dialog.getByTestId('move-ok').click();
    await toast(page, `Successfully moved ${IN_FOLDER} images`);
    await expectSidebarCount(page, 'none', IN_FOLDER + LOOSE);
    await expectSidebarCount(page, 'Bulk plot', 0);
    const left = await e2e.server.api(`/api/images/?folder=${folderId}`);
    expect(left.body.count).toBe(0);
  });

  it('"Deselect all" clears the selection; a search narrows what "select all" takes', async () => {
    const { page } = e2e;
    await page.locator('[data-testid="sidebar-entry"][data-key="none"]').click();
    await page.getByTestId('select-all').click();
    await expect
      .poll(() => page.getByTestId('selected-count').textContent(), POLL)
      .toBe(`${IN_FOLDER + LOOSE} selected`);
    await page.getByTestId('select-all').click();
    await expect.poll(() => page.getByTestId('selected-count').count(), POLL).toBe(0);

    await page.getByPlaceholder('Search by name').fill('loose');
    await expect.poll(() => page.getByTestId('images-total').textContent(), POLL).toMatch(new RegExp(`\\b${LOOSE}\\b`));
    await page.getByTestId('select-all').click();
    await expect.poll(() => page.getByTestId('selected-count').textContent(), POLL).toBe(`${LOOSE} selected`);
  });

  it('the preview wraps over every image, not only the loaded ones: previous from the first is the true last', async () => {
    const { page } = e2e;
    const total = IN_FOLDER + LOOSE;
    await page.getByPlaceholder('Search by name').fill('');
    await page.locator('[data-testid="sidebar-entry"][data-key="all"]').click();
    await expect.poll(() => page.getByTestId('images-total').textContent(), POLL).toMatch(new RegExp(`\\b${total}\\b`));
    // The grid's order (newest first), as the API gives it.
    const names = (await e2e.server.api('/api/images/?page_size=1000')).body.results.map(
      (i: { name: string }) => i.name,
    ) as string[];
    expect(names).toHaveLength(total);
    await page.locator('[data-testid="image-card"]').first().locator('.image-card-thumb').click();
    const preview = page.getByTestId('image-preview');
    await preview.waitFor();
    const counter = preview.getByTestId('preview-counter');
    const name = preview.getByTestId('preview-name');
    await expect.poll(() => counter.textContent(), POLL).toBe(`1 / ${total}`);
    await expect.poll(() => name.textContent(), POLL).toBe(names[0]);
    // Only the first page (200) is loaded: previous fetches the page holding the last image.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => counter.textContent(), POLL).toBe(`${total} / ${total}`);
    await expect.poll(() => name.textContent(), POLL).toBe(names[total - 1]);
    await screenshot(page, 'images-preview-last-en-1440', false);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => counter.textContent(), POLL).toBe(`${total - 1} / ${total}`);
    await expect.poll(() => name.textContent(), POLL).toBe(names[total - 2]);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => counter.textContent(), POLL).toBe(`1 / ${total}`);
    await expect.poll(() => name.textContent(), POLL).toBe(names[0]);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => name.textContent(), POLL).toBe(names[total - 1]);
    await escapeDialog(page, preview);

    // The same in Chinese, and on a phone.
    const openLast = async () => {
      await page.locator('[data-testid="image-card"]').first().locator('.image-card-thumb').click();
      await preview.waitFor();
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => name.textContent(), POLL).toBe(names[total - 1]);
    };
    await e2e.setLanguage('zh');
    await openLast();
    await screenshot(page, 'images-preview-last-zh-1440', false);
    await page.setViewportSize(PHONE);
    await screenshot(page, 'images-preview-last-zh-390', false);
    await escapeDialog(page, preview);
    await e2e.setLanguage('en');
    await openLast();
    await screenshot(page, 'images-preview-last-en-390', false);
    await escapeDialog(page, preview);
    await page.setViewportSize(DESKTOP);
  });
});
