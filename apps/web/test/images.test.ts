import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSelectOption, DESKTOP, escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';
import { card, expectSidebarCount, toast, uploadThroughUi, type PickedFile } from './helpers/images-ui';
import { pngBytes, zipBytes } from './helpers/test-files';

const png = (name: string, seed: number): PickedFile => ({ name, mimeType: 'image/png', buffer: pngBytes(seed) });

/** Whether anything of the grid (cards, group headers) reaches under the quick-jump strip. */
const indexOverlapsGrid = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const strip = document.querySelector('[data-testid="quick-jump"]')?.getBoundingClientRect();
    if (!strip) return false;
    const items = document.querySelectorAll(
      '[data-testid="image-card"], [data-testid="image-row"], .image-group-header span',
    );
    return [...items].some((el) => el.getBoundingClientRect().right > strip.left + 0.5);
  });

/** The images screen in a real browser against a real server: uploads, duplicates, move, delete, preview. */
describe('images screen (e2e)', () => {
  let e2e: E2e;
  beforeAll(async () => {
    e2e = await startE2e();
    const created = await e2e.server.api('/api/folders/', {
      method: 'POST',
      body: { name: 'Trial A', description: 'Plot 3' },
    });
    expect(created.status).toBe(201);
    await e2e.open();
    await e2e.goto('images');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('uploads a single image: progress item completes, the dialog closes, the card and counts appear', async () => {
    const { page } = e2e;
    await uploadThroughUi(page, 'single', [png('leaf-001.png', 1)]);
    const item = page.getByTestId('upload-item').first();
    await item.waitFor();
    await expect.poll(() => item.locator('.upload-progress-name').textContent(), POLL).toBe('leaf-001.png');
    await page.locator('[data-testid="upload-item"][data-status="completed"]').waitFor();
    await expect.poll(() => item.locator('.ant-progress-status-success').count(), POLL).toBe(1);
    await toast(page, '1 image uploaded successfully');
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
    await card(page, 'leaf-001.png').waitFor();
    await expect.poll(() => card(page, 'leaf-001.png').getByTestId('ppd-badge').textContent(), POLL).toBe('PPD --');
    // 2 decimals, and "< 0.01 MB" for a file too small to show at 2 decimals (issue 15 item 8), never 0.00 MB.
    const size = ((await e2e.server.api('/api/images/')).body.results as { name: string; size: number }[]).find(
      (i) => i.name === 'leaf-001.png',
    )!.size;
    const mb = size / 1048576;
    await expect
      .poll(() => card(page, 'leaf-001.png').getByTestId('image-size').textContent(), POLL)
      .toBe(mb < 0.005 ? '< 0.01 MB' : `${mb.toFixed(2)} MB`);
    await expectSidebarCount(page, 'all', 1);
    await expectSidebarCount(page, 'none', 1);
  });

  it('uploads several images into a folder with one progress item per file', async () => {
    const { page } = e2e;
    const notes: PickedFile = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('field notes') };
    await uploadThroughUi(
      page,
      'multiple',
      [png('leaf-002.png', 2), notes, png('leaf-003.png', 3), png('leaf-004.png', 4)],
      { folder: 'Trial A' },
    );
    // A file that is neither an image nor a ZIP is not sent, and the user is told which.
    await toast(page, 'Ignored 1 file that is not an image or ZIP archive: notes.txt');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="upload-item"][data-status="completed"]').length === 3,
    );
    await toast(page, '3 images uploaded successfully');
    // Item 12: the dialog sums the upload up: files and bytes done of the total.
    await expect.poll(() => page.getByTestId('upload-summary-files').textContent(), POLL).toBe('3 / 3 files');
    await expect
      .poll(() => page.getByTestId('upload-summary-bytes').textContent(), POLL)
      .toMatch(/^(< 0\.01|\d+\.\d\d) MB of (< 0\.01|\d+\.\d\d) MB$/);
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-card"]').length === 4);
    await expectSidebarCount(page, 'Trial A', 3);
    await expectSidebarCount(page, 'all', 4);
  });

  it('asks about duplicates (server 409): skip stores the new file only, overwrite replaces in place', async () => {
    const { page } = e2e;
    // Same bytes as leaf-002 (in another folder) under a new name: only the server knows it is a duplicate;
    // leaf-001.png is a name match the page has loaded. The dialog lists exactly the server's 409 list.
    await uploadThroughUi(page, 'multiple', [
      png('copy-of-002.png', 2),
      png('leaf-001.png', 11),
      png('leaf-005.png', 5),
    ]);
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('duplicate-names') });
    await dialog.waitFor();
    // Item 12: one dialog at a time: the progress dialog is not left showing behind the duplicate question.
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
    await expect
      .poll(() => dialog.locator('.duplicate-name').allTextContents(), POLL)
      .toEqual(['copy-of-002.png', 'leaf-001.png']);
    // Issue 15 item 11: each says how it matched and which image it matched.
    await expect
      .poll(() => dialog.getByTestId('duplicate-reason').allTextContents(), POLL)
      .toEqual([
        'Same content as “leaf-002.png” in Trial A',
        'Same name as “leaf-001.png” in Uncategorised (different content)',
      ]);
    // ...and the choice does not send the files again: one upload request, then a small resume request.
    const uploadPosts: string[] = [];
    const onRequest = (r: import('playwright-core').Request) => {
      if (r.method() === 'POST' && r.url().includes('/api/images/')) uploadPosts.push(new URL(r.url()).pathname);
    };
    page.on('request', onRequest);
    await expect
      .poll(() => dialog.locator('.ant-typography').first().textContent(), POLL)
      .toContain('2 files already exist');
    await expect.poll(() => dialog.locator('input[value="skip"]').isChecked(), POLL).toBe(true);
    await screenshot(page, 'images-duplicates-en-1440', false);
    await dialog.getByTestId('duplicate-ok').click();
    await toast(page, '1 image uploaded successfully');
    await toast(page, '2 duplicates skipped');
    page.off('request', onRequest);
    expect(uploadPosts).toEqual(['/api/images/upload-resume/']);
    // Skipped files have their own (warning) state: they were not uploaded.
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="upload-item"][data-status="skipped"]').length === 2,
    );
    expect(await page.locator('[data-testid="upload-item"][data-status="completed"]').count()).toBe(1);
    await expect
      .poll(() => page.locator('[data-testid="upload-item"][data-status="skipped"]').first().textContent(), POLL)
      .toContain('Skipped: duplicate');
    await screenshot(page, 'images-duplicates-skipped-en-1440', false);
    await card(page, 'leaf-005.png').waitFor();
    await expect.poll(() => card(page, 'copy-of-002.png').count(), POLL).toBe(0);
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });

    // Same name in the same folder, new bytes: overwrite keeps one image of that name.
    await uploadThroughUi(page, 'single', [png('leaf-005.png', 55)]);
    await dialog.waitFor();
    await dialog.getByTestId('duplicate-overwrite').click();
    await dialog.getByTestId('duplicate-ok').click();
    await toast(page, '1 image uploaded successfully');
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
    await expect.poll(() => card(page, 'leaf-005.png').count(), POLL).toBe(1);
    await expectSidebarCount(page, 'all', 5);
  });

  it('imports a ZIP archive and reloads the list', async () => {
    const { page } = e2e;
    const zip = zipBytes([
      { name: 'field/zip-a.png', bytes: pngBytes(10) },
      { name: 'zip-b.png', bytes: pngBytes(11) },
      { name: 'notes.txt', bytes: Buffer.from('not an image') },
    ]);
    await uploadThroughUi(page, 'zip', [{ name: 'batch.zip', mimeType: 'application/zip', buffer: zip }]);
    await toast(page, '2 images uploaded successfully');
    const zipItem = page.locator('[data-testid="upload-item"]').filter({ hasText: 'batch.zip' });
    await expect.poll(() => zipItem.getAttribute('data-status'), POLL).toBe('completed');
    // The entry that is not an image is listed with the error state.
    await expect
      .poll(
        () => page.locator('[data-testid="upload-item"][data-status="error"]').filter({ hasText: 'notes.txt' }).count(),
        POLL,
      )
      .toBe(1);
    // The totals count what the browser sent (the archive), not the entries inside it.
    await expect.poll(() => page.getByTestId('upload-summary-files').textContent(), POLL).toBe('1 / 1 file');
    await screenshot(page, 'images-upload-progress-en-1440', false);
    await escapeDialog(page, page.getByTestId('upload-progress'));
    await card(page, 'zip-a.png').waitFor();
    await card(page, 'zip-b.png').waitFor();
    await expectSidebarCount(page, 'all', 7);

    // The same archive again: every image is a duplicate. Skipping them all stores nothing, and no green
    // "0 images uploaded successfully" claims otherwise (issue 15 item 8).
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 15_000, interval: 100 }).toBe(0);
    await uploadThroughUi(page, 'zip', [{ name: 'batch.zip', mimeType: 'application/zip', buffer: zip }]);
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('duplicate-names') });
    await dialog.waitFor();
    await dialog.getByTestId('duplicate-ok').click();
    await toast(page, '2 duplicates skipped');
    expect(await page.locator('.ant-message-notice').filter({ hasText: 'uploaded successfully' }).count()).toBe(0);
    expect(await page.locator('.ant-message-notice-success').count()).toBe(0);
    // The dialog stays open (notes.txt failed): closed by its button, and gone before the next test.
    await page
      .locator('.ant-modal')
      .filter({ has: page.getByTestId('upload-progress') })
      .locator('.ant-modal-close')
      .click();
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
    await expectSidebarCount(page, 'all', 7);
  });

  it('marks a file that the server rejects with the error state and a toast', async () => {
    const { page } = e2e;
    await uploadThroughUi(page, 'single', [
      { name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('definitely not a png') },
    ]);
    const failed = page.locator('[data-testid="upload-item"][data-status="error"]');
    await failed.waitFor();
    await toast(page, 'Failed to upload images');
    // The reason is the translation of the server's code (not_an_image), never its English detail.
    await expect
      .poll(() => failed.locator('.upload-progress-note').textContent(), POLL)
      .toBe('Not a supported image (JPEG, PNG, WebP, TIFF or GIF), or the file is damaged');
    await escapeDialog(page, page.getByTestId('upload-progress'));
    await e2e.setLanguage('zh');
    await uploadThroughUi(page, 'single', [
      { name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('definitely not a png') },
    ]);
    await failed.waitFor();
    await expect
      .poll(() => failed.locator('.upload-progress-note').textContent(), POLL)
      .toBe('不是支持的图像格式（JPEG、PNG、WebP、TIFF 或 GIF），或文件已损坏');
    await screenshot(page, 'images-upload-error-zh-1440', false);
    await escapeDialog(page, page.getByTestId('upload-progress'));
    await e2e.setLanguage('en');
    await uploadThroughUi(page, 'single', [
      { name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('definitely not a png') },
    ]);
    await failed.waitFor();
    await screenshot(page, 'images-upload-error-en-1440', false);
    await escapeDialog(page, page.getByTestId('upload-progress'));
    expect((await e2e.server.api('/api/images/')).body.count).toBe(7);
    await expectSidebarCount(page, 'all', 7);
  });

  it('moves selected images into a folder created inline', async () => {
    const { page } = e2e;
    await card(page, 'zip-a.png').locator('input.image-check').check();
    await card(page, 'zip-b.png').locator('input.image-check').check();
    await expect.poll(() => page.getByTestId('selected-count').textContent(), POLL).toBe('2 selected');
    await page.getByTestId('move-selected').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('move-folders') });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByTestId('inline-folder-create').isDisabled(), POLL).toBe(true);
    await dialog.getByTestId('inline-folder-name').fill('   ');
    await expect.poll(() => dialog.getByTestId('inline-folder-create').isDisabled(), POLL).toBe(true);
    await dialog.getByTestId('inline-folder-name').fill('Trial B');
    await dialog.getByTestId('inline-folder-create').click();
    await dialog.locator('label.ant-radio-wrapper').filter({ hasText: 'Trial B' }).locator('input').waitFor();
    await expect
      .poll(
        () => dialog.locator('label.ant-radio-wrapper').filter({ hasText: 'Trial B' }).locator('input').isChecked(),
        POLL,
      )
      .toBe(true);
    await screenshot(page, 'images-move-en-1440', false);
    await dialog.getByTestId('move-ok').click();
    await toast(page, 'Successfully moved 2 images');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.images-sidebar-entry')].some(
        (e) => e.textContent?.includes('Trial B') && e.textContent.endsWith('2'),
      ),
    );
    // Filtering by the folder shows exactly its images.
    await page.locator('.images-sidebar-entry').filter({ hasText: 'Trial B' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-card"]').length === 2);
    await page.locator('[data-testid="sidebar-entry"][data-key="all"]').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-card"]').length === 7);
  });

  it('deletes selected images after a confirmation that shows the count', async () => {
    const { page } = e2e;
    await card(page, 'leaf-001.png').locator('input.image-check').check();
    await page.getByTestId('delete-selected').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await expect.poll(() => confirm.innerText(), POLL).toContain('Delete the 1 selected image?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Successfully deleted 1 image');
    await card(page, 'leaf-001.png').waitFor({ state: 'detached' });
    await expectSidebarCount(page, 'all', 6);
  });

  it('searches and sorts on the server; list view shows the last prediction', async () => {
    const { page } = e2e;
    await page.locator('.images-search input').fill('zip-');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-card"]').length === 2);
    // No match: a "no images match" state with a way back, not "upload photos to get started".
    await page.locator('.images-search input').fill('no-such-leaf');
    await expect.poll(() => page.getByTestId('images-empty').getAttribute('data-empty'), POLL).toBe('search');
    await expect
      .poll(() => page.getByTestId('images-empty').textContent(), POLL)
      .toContain('No images match “no-such-leaf”');
    await screenshot(page, 'images-no-match-en-1440', false);
    await page.getByTestId('images-empty').getByRole('button', { name: 'Clear search' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-card"]').length === 6);
    expect(await page.locator('.images-search input').inputValue()).toBe('');
    await chooseSelectOption(page, 'sort-select', 'Name');
    // Name starts A→Z (its natural direction, not the date's newest-first); the toggle flips it.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="image-card"]')?.getAttribute('data-image-name') === 'leaf-002.png',
    );
    const names = () =>
      page
        .locator('[data-testid="image-card"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-image-name')));
    await expect
      .poll(names, POLL)
      .toEqual(['leaf-002.png', 'leaf-003.png', 'leaf-004.png', 'leaf-005.png', 'zip-a.png', 'zip-b.png']);
    await page.getByTestId('sort-direction').click();
    await expect
      .poll(names, POLL)
      .toEqual(['zip-b.png', 'zip-a.png', 'leaf-005.png', 'leaf-004.png', 'leaf-003.png', 'leaf-002.png']);
    await page.getByTestId('sort-direction').click();
    await expect
      .poll(names, POLL)
      .toEqual(['leaf-002.png', 'leaf-003.png', 'leaf-004.png', 'leaf-005.png', 'zip-a.png', 'zip-b.png']);
    // Quick-jump index by first letter; a click scrolls (smoothly) until the group's header is at the top.
    await expect
      .poll(() => page.getByTestId('quick-jump').locator('button').allTextContents(), POLL)
      .toEqual(['L', 'Z']);
    await page.setViewportSize({ width: 1440, height: 560 });
    await page.getByTestId('quick-jump').locator('button[data-key="Z"]').click();
    await page.waitForFunction(() => {
      const header = document.querySelector('.image-group-header[data-group="Z"]');
      const scroller = document.querySelector('.image-virtuoso');
      if (!header || !scroller || scroller.scrollTop < 100) return false;
      // At the top, or as near as the end of the list allows.
      const offset = header.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
      return offset > -4 && offset < 60;
    });
    await page.setViewportSize(DESKTOP);
    // Size sort (largest first): the index offers the three size buckets; only the loaded one is enabled.
    await chooseSelectOption(page, 'sort-select', 'Size');
    await page.getByTestId('quick-jump').locator('button[data-key="<1MB"]').waitFor();
    await expect
      .poll(() => page.getByTestId('quick-jump').locator('button').allTextContents(), POLL)
      .toEqual(['>5MB', '1-5MB', '<1MB']);
    await expect.poll(() => page.getByTestId('quick-jump').locator('button:disabled').count(), POLL).toBe(2);
    // Date sort groups by year, month or day.
    await chooseSelectOption(page, 'sort-select', 'Date');
    await page.getByTestId('date-grouping').getByText('Year').click();
    await page.locator(`.image-group-header[data-group="${new Date().getUTCFullYear()}"]`).waitFor();
    await page.getByTestId('date-grouping').getByText('Month').click();
    await expect
      .poll(() => page.locator('.image-group-header').first().innerText(), POLL)
      .toMatch(/^[A-Z][a-z]+ \d{4}/);
    // Month keys read in full (two months are never both "2026…"); day keys sit under their year.
    await expect
      .poll(() => page.getByTestId('quick-jump').locator('button').first().textContent(), POLL)
      .toMatch(/^\d{4}-\d{2}$/);
    expect(await indexOverlapsGrid(page)).toBe(false);
    await page.getByTestId('date-grouping').getByText('Day').click();
    await expect
      .poll(() => page.getByTestId('quick-jump').locator('button').first().textContent(), POLL)
      .toMatch(/^\d{2}-\d{2}$/);
    expect(await page.getByTestId('quick-jump').locator('.quick-jump-marker').first().textContent()).toBe(
      String(new Date().getUTCFullYear()),
    );
    expect(await indexOverlapsGrid(page)).toBe(false);
    await screenshot(page, 'images-index-day-en-1440', false);
    await chooseSelectOption(page, 'sort-select', 'Name');
    await page.getByTestId('quick-jump').locator('button[data-key="L"]').waitFor();
    await page.getByTestId('view-toggle').getByTitle('List view').click();
    await page.locator('[data-testid="image-browser"][data-view="list"]').waitFor();
    await expect
      .poll(() => card(page, 'zip-a.png').getByTestId('last-prediction').textContent(), POLL)
      .toBe('Not predicted yet');
    await screenshot(page, 'images-list-en-1440');
    await page.getByTestId('view-toggle').getByTitle('Grid view').click();
  });

  it('previews full screen: arrows wrap around, Esc closes', async () => {
    const { page } = e2e;
    await card(page, 'leaf-002.png').locator('.image-card-thumb').click();
    const preview = page.getByTestId('image-preview');
    await preview.waitFor();
    await expect.poll(() => preview.getByTestId('preview-counter').textContent(), POLL).toBe('1 / 6');
    await expect.poll(() => preview.getByTestId('preview-name').textContent(), POLL).toBe('leaf-002.png');
    await expect.poll(() => preview.innerText(), POLL).toContain('PNG');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => preview.getByTestId('preview-counter').textContent(), POLL).toBe('2 / 6');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => preview.getByTestId('preview-counter').textContent(), POLL).toBe('6 / 6');
    await expect.poll(() => preview.getByTestId('preview-name').textContent(), POLL).toBe('zip-b.png');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => preview.getByTestId('preview-counter').textContent(), POLL).toBe('1 / 6');
    await screenshot(page, 'images-preview-en-1440', false);
    await escapeDialog(page, preview);
  });

  it('screenshots: grid and dialogs in English and Chinese, desktop and phone', async () => {
    const { page } = e2e;
    await screenshot(page, 'images-grid-en-1440');
    await page.getByTestId('upload-multiple').click();
    await page.getByTestId('choose-files').waitFor();
    await screenshot(page, 'images-upload-settings-en-1440', false);
    await escapeDialog(page, page.getByTestId('choose-files'));
    await e2e.setLanguage('zh');
    await page.getByText('全部图像').waitFor();
    await expect.poll(() => page.locator('.image-card-meta').first().innerText(), POLL).toContain('年');
    await screenshot(page, 'images-grid-zh-1440');
    await page.setViewportSize(PHONE);
    // A phone takes many photos at once (issue 25 item 6): Upload picks several; one photo and a ZIP are in its menu.
    await expect.poll(() => page.getByTestId('upload-multiple').isVisible(), POLL).toBe(true);
    await expect.poll(() => page.getByTestId('upload-menu').isVisible(), POLL).toBe(true);
    await expect.poll(() => page.getByTestId('quick-jump').count(), POLL).toBe(1);
    expect(await indexOverlapsGrid(page)).toBe(false);
    await screenshot(page, 'images-grid-zh-390');
    // The duplicate question on a phone, in Chinese: each match said in words (issue 15 items 11, 16).
    await uploadThroughUi(page, 'single', [png('again.png', 2)]);
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('duplicate-names') });
    await dialog.waitFor();
    await expect
      .poll(() => dialog.getByTestId('duplicate-reason').allTextContents(), POLL)
      .toEqual(['与“Trial A”中的“leaf-002.png”内容相同']);
    expect(englishSentences(await dialog.innerText())).toEqual([]);
    await screenshot(page, 'images-duplicates-zh-390', false);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await e2e.setLanguage('en');
    await page.getByText('Upload').first().waitFor();
    // Dates follow the language too.
    await expect
      .poll(() => page.locator('.image-card-meta').first().innerText(), POLL)
      .toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await screenshot(page, 'images-grid-en-390');
    await page.setViewportSize(DESKTOP);
  });
  it('server unreachable on a fresh start: an error with a retry, not "no images here yet"', async () => {
    const { page } = e2e;
    const isList = (url: URL) => url.pathname === '/api/images/';
    await page.route(isList, (route) => route.abort('connectionrefused'));
    try {
      await page.reload();
      await page.locator('.app-header').waitFor();
      await e2e.goto('images');
      await expect.poll(() => page.getByTestId('images-error').textContent(), POLL).toContain('Network error');
      expect(await page.getByTestId('images-empty').count()).toBe(0);
      await screenshot(page, 'images-offline-en-1440', false);
    } finally {
      await page.unroute(isList);
    }
    await page.getByTestId('images-error-retry').click();
    await expect.poll(() => page.locator('[data-testid="image-card"]').count(), POLL).toBeGreaterThan(0);
  });
});
