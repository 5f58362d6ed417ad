import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { card, openUploadSettings, toast, type PickedFile } from './helpers/images-ui';
import { pngBytes, zipBytes } from './helpers/test-files';

/**
 * A sample sheet given in the same step as the photos (issue 17), in a real browser against the real server:
 * a CSV picked together with three photos is the upload's sheet, applied to exactly the images that upload
 * stored (a same-named older photo elsewhere keeps its fields), after the pattern; the progress dialog reports
 * each row. A ZIP with a sheet chosen in the settings and a bad value stores nothing until the researcher applies
 * the good rows (in Chinese, on a phone). Two sheets, or a sheet that cannot be read, upload nothing.
 */
let e2e: E2e;
let page: Page;

const png = (name: string, seed: number): PickedFile => ({ name, mimeType: 'image/png', buffer: pngBytes(seed) });
const csv = (name: string, text: string): PickedFile => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

type Listed = { id: number; name: string; folderId: number | null; metadata: Record<string, unknown> };
async function images(): Promise<Listed[]> {
  return (await e2e.server.api('/api/images/?page_size=1000')).body.results as Listed[];
}
const uncategorised = async (name: string) => (await images()).find((i) => i.name === name && i.folderId === null);

/** Opens the upload settings for a mode; the dialog it returns has the pickers. */
const openSettings = (mode: 'multiple' | 'zip') => openUploadSettings(page, mode);

const progressDialog = () => page.locator('.ant-modal').filter({ has: page.getByTestId('upload-progress') });
const sheetRow = (name: string) =>
  progressDialog().getByTestId('sheet-rows').locator('tr').filter({ hasText: name }).first();

async function closeProgress() {
  await progressDialog().locator('.ant-modal-close').click();
  await progressDialog().waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  await e2e.open();
  await e2e.goto('images');
});

afterAll(async () => {
  await e2e?.close();
});

describe('a sample sheet given with the photos', () => {
  it('picks 3 photos and a CSV in one go: the sheet reaches exactly those images, after the pattern', async () => {
    // An older photo of the same name in another folder: the sheet must not reach it.
    const folder = (await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Older trial' } })).body;
    const older = await e2e.server.upload('/api/images/upload-files/', [{ name: 'P419_1.png', bytes: pngBytes(1) }], {
      folder_id: String(folder.id),
    });
    expect(older.status).toBe(201);

    const dialog = await openSettings('multiple');
    await dialog.getByTestId('upload-pattern').fill('{plot}_{rep}');
    await screenshot(page, 'upload-sheet-settings-en-1440');
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([
        png('P419_1.png', 11),
        png('P419_2.png', 12),
        csv(
          'field-book.csv',
          'name,genotype,rep,dah\nP419_1.png,TME419,5,7\nP419_2,TME419,,7\nP693_1.png,TME693,,14\nghost.jpg,X,1,1\n',
        ),
        png('P693_1.png', 13),
      ]);

    const outcome = progressDialog().getByTestId('sheet-outcome');
    await expect.poll(() => outcome.getAttribute('data-outcome'), POLL).toBe('applied');
    expect(await outcome.textContent()).toBe('Fields stored from 3 rows.');
    const counts = progressDialog().getByTestId('sheet-counts');
    expect(await counts.locator('[data-status="applied"]').textContent()).toBe('Applied: 3');
    expect(await counts.locator('[data-status="unknown_file"]').textContent()).toBe('Unknown file: 1');
    expect(await sheetRow('ghost.jpg').textContent()).toContain('Not among the photos stored by this upload');
    expect(await sheetRow('P693_1.png').textContent()).toContain('Genotype, Days after harvest');
    // The photos are listed, the sheet is not a photo (no "not an image" error).
    expect(await progressDialog().locator('[data-testid="upload-item"][data-status="completed"]').count()).toBe(3);
    expect(await progressDialog().locator('[data-testid="upload-item"][data-status="error"]').count()).toBe(0);
    await screenshot(page, 'upload-sheet-report-en-1440');

    // The sheet's values win over the pattern's, field by field: rep 5 from the sheet, plot from the name.
    expect((await uncategorised('P419_1.png'))?.metadata).toEqual({ plot: 'P419', rep: 5, genotype: 'TME419', dah: 7 });
    expect((await uncategorised('P419_2.png'))?.metadata).toEqual({ plot: 'P419', rep: 2, genotype: 'TME419', dah: 7 });
    expect((await uncategorised('P693_1.png'))?.metadata).toEqual({
      plot: 'P693',
      rep: 1,
      genotype: 'TME693',
      dah: 14,
    });
    const olderNow = (await images()).find((i) => i.id === older.body.uploaded[0].id);
    expect(olderNow?.metadata).toEqual({});

    // What the researcher sees on the image: its preview lists the fields.
    await closeProgress();
    await card(page, 'P693_1.png').first().click();
    const preview = page.getByTestId('image-preview');
    await preview.waitFor();
    await expect.poll(() => preview.locator('[data-field="genotype"] dd').textContent(), POLL).toBe('TME693');
    expect(await preview.locator('[data-field="dah"] dd').textContent()).toBe('14');
    await escapeDialog(page, preview);
  });

  it('uploads nothing when two sheets are given, or when the sheet cannot be read', async () => {
    const before = (await images()).length;
    let dialog = await openSettings('multiple');
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([png('T1.png', 21), csv('a.csv', 'name,genotype\nT1.png,A\n'), csv('b.csv', 'name\nT1.png\n')]);
    await toast(page, 'Only one sample sheet per upload, but 2 were given: a.csv, b.csv. Nothing was uploaded.');

    // The settings' sheet picker and a sheet among the photos are two sheets too.
    dialog = await openSettings('multiple');
    await dialog
      .getByTestId('upload-sheet-picker')
      .locator('input[type="file"]')
      .setInputFiles([csv('picked.csv', 'name,genotype\nT1.png,A\n')]);
    await expect.poll(() => dialog.getByTestId('upload-sheet-picker').textContent(), POLL).toContain('picked.csv');
    await dialog.getByTestId('upload-input').setInputFiles([png('T1.png', 21), csv('also.csv', 'name\nT1.png\n')]);
    await toast(
      page,
      'Only one sample sheet per upload, but 2 were given: picked.csv, also.csv. Nothing was uploaded.',
    );

    dialog = await openSettings('multiple');
    // A photo dropped on the sheet picker is refused there, with a word (it is not a sheet).
    const notSheet = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array([1, 2, 3])], 'photo.png', { type: 'image/png' }));
      return dt;
    });
    await dialog.locator('.upload-sheet-picker .ant-upload-btn').dispatchEvent('drop', { dataTransfer: notSheet });
    await toast(page, 'photo.png is not a CSV or XLSX sheet.');
    expect(await dialog.getByTestId('upload-sheet-picker').textContent()).not.toContain('photo.png');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'upload-sheet-settings-en-390');
    await page.setViewportSize(DESKTOP);
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([png('T1.png', 21), csv('no-name.csv', 'genotype,dah\nA,1\n')]);
    await toast(
      page,
      'The sheet no-name.csv could not be read: it needs a header row with a name (or file_name) column, then one column per field (letters, digits and _). Nothing was uploaded.',
    );
    expect((await images()).length).toBe(before);
  });

  it('a ZIP with a sheet with a bad value stores nothing of it until the good rows are applied (Chinese, phone)', async () => {
    await e2e.setLanguage('zh');
    const zip = zipBytes([
      { name: 'Z1.png', bytes: pngBytes(31) },
      { name: 'Z2.png', bytes: pngBytes(32) },
    ]);
    const dialog = await openSettings('zip');
    await dialog
      .getByTestId('upload-sheet-picker')
      .locator('input[type="file"]')
      .setInputFiles([csv('trial.csv', 'name,genotype,dah\nZ1.png,TME419,soon\nZ2.png,TME693,7\n')]);
    await expect.poll(() => dialog.getByTestId('upload-sheet-picker').textContent(), POLL).toContain('trial.csv');
    await screenshot(page, 'upload-sheet-settings-zh-1440');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'upload-sheet-settings-zh-390');
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([{ name: 'trial.zip', mimeType: 'application/zip', buffer: zip }]);

    const outcome = progressDialog().getByTestId('sheet-outcome');
    await expect.poll(() => outcome.getAttribute('data-outcome'), POLL).toBe('blocked');
    expect(await outcome.locator('.ant-alert-title').textContent()).toBe('表格内容均未保存：有 1 行含错误值。');
    expect(await sheetRow('Z1.png').textContent()).toContain('采后天数：“soon”不是大于或等于 0 的数字');
    // Nothing is stored yet: the good row says so rather than "applied".
    const counts = progressDialog().getByTestId('sheet-counts');
    expect(await counts.locator('[data-status="applied"]').textContent()).toBe('正确，未保存: 1');
    await screenshot(page, 'upload-sheet-blocked-zh-390');
    expect((await uncategorised('Z1.png'))?.metadata).toEqual({});
    expect((await uncategorised('Z2.png'))?.metadata).toEqual({});

    await progressDialog().getByTestId('sheet-apply-good').click();
    await expect.poll(() => outcome.getAttribute('data-outcome'), POLL).toBe('applied');
    expect(await outcome.textContent()).toBe('已从 1 行保存字段；1 行含错误值，已略过。');
    expect(await counts.locator('[data-status="applied"]').textContent()).toBe('已应用: 1');
    expect((await uncategorised('Z1.png'))?.metadata).toEqual({});
    expect((await uncategorised('Z2.png'))?.metadata).toEqual({ genotype: 'TME693', dah: 7 });
    await screenshot(page, 'upload-sheet-partial-zh-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'upload-sheet-partial-zh-1440');
    await closeProgress();
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
  });

  it('after the duplicate question, the sheet reaches the photos stored, not the skipped duplicate', async () => {
    const dialog = await openSettings('multiple');
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([
        png('Z2.png', 32),
        png('Z3.png', 33),
        csv('again.csv', 'name,genotype\nZ2.png,CHANGED\nZ3.png,TME7\n'),
      ]);
    await page.getByTestId('duplicate-ok').click();
    const outcome = progressDialog().getByTestId('sheet-outcome');
    await expect.poll(() => outcome.getAttribute('data-outcome'), POLL).toBe('applied');
    expect(await outcome.textContent()).toBe('Fields stored from 1 row.');
    expect(await sheetRow('Z2.png').textContent()).toContain('Not among the photos stored by this upload');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'upload-sheet-report-en-390');
    expect((await uncategorised('Z2.png'))?.metadata).toEqual({ genotype: 'TME693', dah: 7 });
    expect((await uncategorised('Z3.png'))?.metadata).toEqual({ genotype: 'TME7' });
    await closeProgress();
    await page.setViewportSize(DESKTOP);
  });
  it('a sheet kept out by a bad value can be corrected and applied later on Samples', async () => {
    const dialog = await openSettings('zip');
    await dialog
      .getByTestId('upload-sheet-picker')
      .locator('input[type="file"]')
      .setInputFiles([csv('late.csv', 'name,dah\nY1.png,-1\n')]);
    await expect.poll(() => dialog.getByTestId('upload-sheet-picker').textContent(), POLL).toContain('late.csv');
    await dialog.getByTestId('upload-input').setInputFiles([
      {
        name: 'late.zip',
        mimeType: 'application/zip',
        buffer: zipBytes([{ name: 'Y1.png', bytes: pngBytes(41) }]),
      },
    ]);
    const outcome = progressDialog().getByTestId('sheet-outcome');
    await expect.poll(() => outcome.getAttribute('data-outcome'), POLL).toBe('blocked');
    expect(await sheetRow('Y1.png').textContent()).toContain('Days after harvest: “-1” is not a number of 0 or more');
    // No good row to apply: only the way to Samples is offered.
    expect(await progressDialog().getByTestId('sheet-apply-good').count()).toBe(0);
    await screenshot(page, 'upload-sheet-blocked-en-1440');

    await progressDialog().getByTestId('sheet-open-samples').click();
    await page.locator('[data-section="samples"]').waitFor();
    await progressDialog().waitFor({ state: 'hidden' });
    await page.getByTestId('tab-sheet').click();
    await page
      .getByTestId('sheet-panel')
      .locator('input[type="file"]')
      .setInputFiles([csv('late-fixed.csv', 'name,dah\nY1.png,1\n')]);
    const report = page.getByTestId('sheet-report');
    await expect.poll(() => report.locator('.ant-alert-title').textContent(), POLL).toBe('Fields stored from 1 row.');
    expect(await report.getByTestId('sheet-rows').locator('tr').filter({ hasText: 'Y1.png' }).textContent()).toContain(
      'Days after harvest',
    );
    expect((await uncategorised('Y1.png'))?.metadata).toEqual({ dah: 1 });
    await e2e.goto('images');
  });
  it('takes a photo and its sheet dropped together on the upload dialog', async () => {
    await page.getByTestId('upload-single').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('choose-files') });
    await dialog.waitFor();
    const dropped = [png('D1.png', 51), csv('drop.csv', 'file_name;genotype;dah\nD1;TME3;21\n')];
    const dataTransfer = await page.evaluateHandle(
      (files) => {
        const dt = new DataTransfer();
        for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
        return dt;
      },
      dropped.map((f) => ({ name: f.name, type: f.mimeType, bytes: [...f.buffer] })),
    );
    await dialog.getByTestId('upload-drop').dispatchEvent('drop', { dataTransfer });
    const outcome = progressDialog().getByTestId('sheet-outcome');
    await expect.poll(() => outcome.getAttribute('data-outcome'), POLL).toBe('applied');
    expect(await outcome.textContent()).toBe('Fields stored from 1 row.');
    expect((await uncategorised('D1.png'))?.metadata).toEqual({ genotype: 'TME3', dah: 21 });
    await closeProgress();
  });
});
