import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseSelectOption, DESKTOP, escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';
import { openUploadSettings as openUpload, type PickedFile } from './helpers/images-ui';
import { pngBytes, zipBytes } from './helpers/test-files';

/**
 * File-name patterns that do not fit (issue 25 item 5), in a real browser against the real server: the pattern
 * the app suggests, {genotype}_{rep}_{dah}d_{root}, on names such as TME419_R1_7d_root1.jpg says per name why
 * (the field, what it expects, what the name has) and offers the pattern read from the names,
 * {genotype}_R{rep}_{dah}d_{root}: on Samples, live in the upload dialog before anything is sent, and after a
 * ZIP's upload; in English and in Chinese, wide and on a phone.
 */
let e2e: E2e;
let page: Page;

const DEFAULT = '{genotype}_{rep}_{dah}d_{root}';
const FITTING = '{genotype}_R{rep}_{dah}d_{root}';
const png = (name: string, seed: number): PickedFile => ({ name, mimeType: 'image/png', buffer: pngBytes(seed) });

/** The reason shown beside a name (a row of the matched table, or an item of the list of names that do not fit). */
const reasonOf = (name: string) =>
  page
    .locator('[data-testid="matched-table"] tr, [data-testid="name-fit-item"]')
    .filter({ hasText: name })
    .getByTestId('name-fit-reason');

const openUploadSettings = (mode: 'multiple' | 'zip') => openUpload(page, mode);

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const folder = (await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Trial R' } })).body;
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    ['TME419_R1_7d_root1.jpg', 'TME419_R2_7d_root2.jpg', 'TME693_R1_14d_root1.jpg', 'notes.jpg'].map((name, i) => ({
      name,
      bytes: pngBytes(70 + i),
    })),
    { folder_id: String(folder.id) },
  );
  expect(up.status).toBe(201);
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

describe('names that do not fit a pattern say why, and a pattern that fits is offered', () => {
  it('Samples: each name says which field, what it expects and what it has; the suggested pattern fits', async () => {
    await e2e.goto('samples');
    await chooseSelectOption(page, 'pattern-folder', 'Trial R');
    await expect.poll(() => page.getByTestId('pattern-input').inputValue(), POLL).toBe(DEFAULT);
    await expect
      .poll(() => reasonOf('TME419_R1_7d_root1.jpg').textContent(), POLL)
      .toBe('{rep} (Replicate) must be a number of 0 or more; the name has “R1” there.');
    expect(await reasonOf('TME693_R1_14d_root1.jpg').textContent()).toBe(
      '{rep} (Replicate) must be a number of 0 or more; the name has “R1” there.',
    );
    expect(await reasonOf('notes.jpg').textContent()).toBe(
      '“_” should follow {genotype} (Genotype); the name has “notes” from there.',
    );
    expect(await page.getByTestId('pattern-apply').isDisabled()).toBe(true);
    const suggestion = page.getByTestId('pattern-suggestion');
    await expect.poll(() => suggestion.getByTestId('suggested-pattern').textContent(), POLL).toBe(FITTING);
    expect(await suggestion.textContent()).toContain('A pattern that fits 3 of 4 names:');
    await screenshot(page, 'name-patterns-samples-en-1440');

    await suggestion.getByTestId('use-suggestion').click();
    await expect.poll(() => page.getByTestId('pattern-input').inputValue(), POLL).toBe(FITTING);
    await expect.poll(() => page.getByTestId('matched-count').textContent(), POLL).toBe('Matched: 3');
    await expect.poll(() => page.getByTestId('matched-table').getByTestId('name-fit-reason').count(), POLL).toBe(0);
    await expect.poll(() => page.getByTestId('pattern-apply').isDisabled(), POLL).toBe(false);
    // The one name that still does not fit keeps its reason; no better pattern is offered.
    expect(await reasonOf('notes.jpg').count()).toBe(1);
    expect(await suggestion.count()).toBe(0);
    await page.getByTestId('pattern-apply').click();
    await page.locator('.ant-message-notice').filter({ hasText: 'Fields stored for 3 images.' }).waitFor();
    const stored = (await e2e.server.api('/api/images/?search=TME693_R1')).body.results[0];
    expect(stored.metadata).toEqual({ genotype: 'TME693', rep: 1, dah: 14, root: 'root1' });
  });

  it('the upload dialog holds photos whose names do not fit, says why live, and uploads with the suggested pattern', async () => {
    await e2e.goto('images');
    const dialog = await openUploadSettings('multiple');
    await dialog.getByTestId('upload-pattern').fill(DEFAULT);
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([png('TME419_R3_7d_root3.png', 81), png('TME693_R2_14d_root2.png', 82)]);
    // Nothing is sent yet: the names are listed with why.
    const preview = dialog.getByTestId('upload-name-preview');
    await preview.waitFor();
    expect(await preview.getByTestId('upload-names-fit').textContent()).toBe(
      '0 of 2 names fit the pattern. Photos whose names do not fit are uploaded without fields unless the pattern is changed.',
    );
    expect(await preview.getByTestId('name-fit-reason').allTextContents()).toEqual([
      '{rep} (Replicate) must be a number of 0 or more; the name has “R3” there.',
      '{rep} (Replicate) must be a number of 0 or more; the name has “R2” there.',
    ]);
    expect(await dialog.getByTestId('choose-files').textContent()).toBe('Upload 2 files');
    expect((await e2e.server.api('/api/images/?search=TME419_R3')).body.count).toBe(0);
    await screenshot(page, 'name-patterns-upload-en-1440', false);

    // The list follows the pattern as it is typed.
    await dialog.getByTestId('upload-pattern').fill('{genotype}_R{rep}_{dah}d');
    await expect
      .poll(() => preview.getByTestId('name-fit-reason').first().textContent(), POLL)
      .toBe('The name goes on after the end of the pattern: “_root3”.');
    // The suggested pattern fits every name.
    await expect.poll(() => preview.getByTestId('suggested-pattern').textContent(), POLL).toBe(FITTING);
    await preview.getByTestId('use-suggestion').click();
    await expect.poll(() => dialog.getByTestId('upload-pattern').inputValue(), POLL).toBe(FITTING);
    await expect.poll(() => preview.getByTestId('upload-names-fit').textContent(), POLL).toMatch(/^2 of 2 names fit/);
    expect(await preview.getByTestId('name-fit-reason').count()).toBe(0);
    await dialog.getByTestId('choose-files').click();
    await page
      .locator('.ant-message-notice')
      .filter({ hasText: 'Fields read from 2 names; 0 did not match' })
      .waitFor();
    const stored = (await e2e.server.api('/api/images/?search=TME419_R3')).body.results[0];
    expect(stored.metadata).toEqual({ genotype: 'TME419', rep: 3, dah: 7, root: 'root3' });
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
  });

  it("after a ZIP's upload the names that did not fit are listed with why and a pattern that fits them", async () => {
    const zip = zipBytes([
      { name: 'TME419_R4_7d_root4.png', bytes: pngBytes(91) },
      { name: 'TME419_5_7d_R5.png', bytes: pngBytes(92) },
    ]);
    const dialog = await openUploadSettings('zip');
    await dialog.getByTestId('upload-pattern').fill(DEFAULT);
    await dialog
      .getByTestId('upload-input')
      .setInputFiles([{ name: 'r.zip', mimeType: 'application/zip', buffer: zip }]);
    const note = page.getByTestId('pattern-unfit');
    await note.waitFor();
    expect(await note.getByTestId('pattern-unfit-name').allTextContents()).toEqual([
      'TME419_R4_7d_root4.png: {rep} (Replicate) must be a number of 0 or more; the name has “R4” there.',
    ]);
    expect(await note.getByTestId('pattern-unfit-suggestion').textContent()).toBe(
      `A pattern that fits them: ${FITTING} (apply it to their folder in Samples).`,
    );
    await page.locator('.ant-notification-notice').filter({ hasText: '1 name did not fit the pattern' }).waitFor();
    await page
      .locator('.ant-message-notice')
      .filter({ hasText: 'Fields read from 1 name; 1 did not match the pattern.' })
      .waitFor();
    // The name that fits got its fields; the other none.
    const images = (await e2e.server.api('/api/images/?search=TME419_&page_size=50')).body.results as {
      name: string;
      metadata: Record<string, unknown>;
    }[];
    expect(images.find((i) => i.name === 'TME419_5_7d_R5.png')?.metadata).toEqual({
      genotype: 'TME419',
      rep: 5,
      dah: 7,
      root: 'R5',
    });
    expect(images.find((i) => i.name === 'TME419_R4_7d_root4.png')?.metadata).toEqual({});
    await screenshot(page, 'name-patterns-zip-en-1440', false);
    await page.locator('.ant-notification-notice-close').click();
    await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
  });

  it('says the same in Chinese, on a phone', async () => {
    await page.setViewportSize(PHONE);
    await e2e.setLanguage('zh');
    await e2e.goto('images');
    const dialog = await openUploadSettings('multiple');
    await dialog.getByTestId('upload-pattern').fill(DEFAULT);
    await dialog.getByTestId('upload-input').setInputFiles([png('TME419_R6_7d_root6.png', 83)]);
    const preview = dialog.getByTestId('upload-name-preview');
    await preview.waitFor();
    // The held names come into view on the phone's screen.
    await expect
      .poll(async () => (await preview.getByTestId('upload-names-fit').boundingBox())?.y ?? PHONE.height, POLL)
      .toBeLessThan(PHONE.height);
    expect(await preview.getByTestId('upload-names-fit').textContent()).toBe(
      '1 个文件名中有 0 个符合模式。不符合的照片上传后没有样本字段，除非修改模式。',
    );
    expect(await preview.getByTestId('name-fit-reason').allTextContents()).toEqual([
      '{rep}（重复）应为不小于 0 的数字，文件名此处为“R6”。',
    ]);
    await expect.poll(() => preview.getByTestId('suggested-pattern').textContent(), POLL).toBe(FITTING);
    expect(await preview.getByTestId('pattern-suggestion').textContent()).toContain('适合 1 个文件名中 1 个的模式：');
    expect(await dialog.getByTestId('choose-files').textContent()).toMatch(/^上传 1 个文件$/);
    expect(englishSentences(await preview.innerText())).toEqual([]);
    // Nothing of the dialog is wider than the phone.
    const overflow = await dialog.locator('.ant-modal-body').evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'name-patterns-upload-zh-390', false);
    await escapeDialog(page, dialog);

    await e2e.goto('samples');
    await chooseSelectOption(page, 'pattern-folder', 'Trial R');
    await page.getByTestId('pattern-input').fill(DEFAULT);
    await expect
      .poll(() => reasonOf('TME419_R1_7d_root1.jpg').textContent(), POLL)
      .toBe('{rep}（重复）应为不小于 0 的数字，文件名此处为“R1”。');
    expect(await reasonOf('notes.jpg').textContent()).toBe(
      '{genotype}（基因型）之后应为“_”，文件名从此处起为“notes”。',
    );
    await expect.poll(() => page.getByTestId('suggested-pattern').textContent(), POLL).toBe(FITTING);
    await screenshot(page, 'name-patterns-samples-zh-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'name-patterns-samples-zh-1440');
    await e2e.setLanguage('en');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'name-patterns-samples-en-390');
    await page.setViewportSize(DESKTOP);
  });
});
