import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enConnection from '../src/locales/en/connection.json';
import zhConnection from '../src/locales/zh/connection.json';
import enResults from '../src/locales/en/results.json';
import zhResults from '../src/locales/zh/results.json';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';
import { card, toast, uploadThroughUi } from './helpers/images-ui';
import { REPO_DIR } from './helpers/paths';

/**
 * Issue 25 item 8, the small things, in a real browser against the real server and engine, English and Chinese:
 * the name on an image card opens the preview; "Keep both" in the duplicate dialog stores the second copy as
 * "name (2).jpg"; a failed file of a multi-upload is counted and listed first; the Connection screen links the API
 * docs; a refused photo never shows its raw code (the reason translated) and "What the engine saw" has a legend;
 * the review keys N / P / A / X work on a multi-specimen photo as the hint says. (Who started a task and the
 * viewer's missing key hints, with sign-in on: task-creator-viewer.test.ts.)
 */
let e2e: E2e;
let page: Page;
let taskId = 0;
const ids = { field: 0, three: 0, flagged: 0 };

/** A real cassava leaf on the plant, in the field (CC BY 3.0, Mobile Crop Surveillance project, Makerere University). */
const FIELD_PHOTO = path.resolve(REPO_DIR, '../shared/real-photos/leaves/cropsurv_field_leaf_on_plant.jpg');

const png = (seed: number) =>
  sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: (seed * 53) % 255, g: 120, b: (seed * 29) % 255 } },
  })
    .png()
    .toBuffer();

const detail = () => page.getByTestId('result-detail');
const title = () => page.locator('.result-detail-modal .ant-modal-title');
const progressDialog = () => page.locator('.ant-modal').filter({ has: page.getByTestId('upload-progress') });
const resultOf = async (id: number) => (await e2e.server.api(`/api/predictions/?image_id=${id}`)).body.results[0];

async function closeProgress(): Promise<void> {
  await progressDialog().locator('.ant-modal-close').click();
  await page.getByTestId('upload-progress').waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    [
      { name: 'field.jpg', bytes: await fs.readFile(FIELD_PHOTO) },
      { name: 'three.jpg', bytes: await makeSpecimenJpeg({ seed: 21, width: 720, height: 480 }) },
      { name: 'flagged.jpg', bytes: await makeSpecimenJpeg({ seed: 33, width: 720, height: 480 }) },
      { name: 'plot.jpg', bytes: await png(1) },
    ],
    { check_duplicate: '0' },
  );
  expect(up.status).toBe(201);
  const byName = new Map<string, number>(up.body.uploaded.map((i: { id: number; name: string }) => [i.name, i.id]));
  ids.field = byName.get('field.jpg')!;
  ids.three = byName.get('three.jpg')!;
  ids.flagged = byName.get('flagged.jpg')!;
  // An earlier task first: its result is listed after this task's (newest first), so three.jpg is never the last
  // result of "All tasks", whatever order the engine finished this task's photos in, and "the next result opens".
  await scoreAndWait('Earlier', [ids.field]);
  taskId = await scoreAndWait('Small things', [ids.field, ids.three, ids.flagged]);
  // The engine is confident on these photos: a person is asked to look at specimen 2 of flagged.jpg.
  const flagged = await resultOf(ids.flagged);
  const db = new SQLite(path.join(e2e.server.dataDir, 'cassavascope.db'));
  try {
    const specimens = flagged.specimens.map((s: any) => ({ ...s, needs_review: s.index === 2 }));
    const row = db.prepare('select specimens from results where id = ?').get(flagged.id) as { specimens: string };
    const stored = (JSON.parse(row.specimens) as any[]).map((s, i) => ({
      ...s,
      needs_review: specimens[i].needs_review,
    }));
    db.prepare('update results set specimens = ?, needs_review = 1 where id = ?').run(
      JSON.stringify(stored),
      flagged.id,
    );
  } finally {
    db.close();
  }
  await e2e.open();
  await e2e.goto('images');
});

async function scoreAndWait(name: string, imageIds: number[]): Promise<number> {
  const task = await e2e.server.api('/api/tasks/prediction/', { method: 'POST', body: { name, image_ids: imageIds } });
  expect(task.status).toBe(201);
  const deadline = Date.now() + 180_000;
  while ((await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error(`the task ${name} did not end`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return task.body.id;
}

afterAll(async () => {
  await e2e?.close();
});

describe('the small things of issue 25 item 8', () => {
  it('opens the preview from the file name on an image card too', async () => {
    await card(page, 'three.jpg').getByTestId('image-card-name').click();
    const preview = page.getByTestId('image-preview');
    await preview.waitFor();
    await expect.poll(() => preview.getByTestId('preview-name').textContent(), POLL).toBe('three.jpg');
    await escapeDialog(page, preview);
  });

  it('keeps both in the duplicate dialog: the new file is stored as "plot (2).jpg" beside plot.jpg', async () => {
    await uploadThroughUi(page, 'multiple', [
      { name: 'plot.jpg', mimeType: 'image/png', buffer: await png(2) },
      { name: 'new.jpg', mimeType: 'image/png', buffer: await png(3) },
    ]);
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('duplicate-names') });
    await dialog.waitFor();
    const keep = dialog.getByTestId('duplicate-keep-both');
    const keepLabel = dialog.getByTestId('duplicate-keep-both-label');
    await expect
      .poll(() => keepLabel.textContent(), POLL)
      .toBe('Keep both: store the new ones under a new name (e.g. “plot (2).jpg”)');
    await keep.click();
    await screenshot(page, 'issue25c-duplicate-keep-both-en-1440', false);
    await dialog.getByTestId('duplicate-ok').click();
    const kept = page.locator('[data-testid="upload-item"]').filter({ hasText: 'Stored as “plot (2).jpg”' });
    await kept.waitFor();
    await expect.poll(() => card(page, 'plot (2).jpg').count(), POLL).toBe(1);
    expect(await card(page, 'plot.jpg').count()).toBe(1);
    await escapeDialog(page, page.getByTestId('upload-progress'));

    await e2e.setLanguage('zh');
    await uploadThroughUi(page, 'multiple', [{ name: 'plot.jpg', mimeType: 'image/png', buffer: await png(4) }]);
    await dialog.waitFor();
    await expect.poll(() => keepLabel.textContent(), POLL).toBe('两者都保留：新文件以新名称存储（例如“plot (2).jpg”）');
    await keep.click();
    await screenshot(page, 'issue25c-duplicate-keep-both-zh-1440', false);
    await dialog.getByTestId('duplicate-ok').click();
    await page.locator('[data-testid="upload-item"]').filter({ hasText: '已存储为“plot (3).jpg”' }).waitFor();
    await escapeDialog(page, page.getByTestId('upload-progress'));
    await e2e.setLanguage('en');
  });

  it('counts a failed file of a multi-upload and lists it first, in English and Chinese', async () => {
    for (const lang of ['en', 'zh'] as const) {
      if (lang === 'zh') await e2e.setLanguage('zh');
      await uploadThroughUi(page, 'multiple', [
        { name: `good-a-${lang}.png`, mimeType: 'image/png', buffer: await png(lang === 'en' ? 10 : 20) },
        { name: `broken-${lang}.png`, mimeType: 'image/png', buffer: Buffer.from('definitely not a png') },
        { name: `good-b-${lang}.png`, mimeType: 'image/png', buffer: await png(lang === 'en' ? 11 : 21) },
      ]);
      const items = page.getByTestId('upload-item');
      await page.locator('[data-testid="upload-item"][data-status="error"]').waitFor();
      await expect.poll(() => items.first().getAttribute('data-status'), POLL).toBe('error');
      expect(await items.first().textContent()).toContain(`broken-${lang}.png`);
      const files = page.getByTestId('upload-summary-files');
      const failed = page.getByTestId('upload-summary-failed');
      if (lang === 'en') {
        await expect.poll(() => files.textContent(), POLL).toBe('2 of 3 files stored');
        expect(await failed.textContent()).toBe('1 failed');
        await toast(page, `1 of 3 files failed: broken-en.png`);
      } else {
        await expect.poll(() => files.textContent(), POLL).toBe('已存储 2 / 3 个文件');
        expect(await failed.textContent()).toBe('1 个失败');
        await toast(page, `3 个文件中有 1 个失败：broken-zh.png`);
      }
      await screenshot(page, `issue25c-upload-failed-first-${lang}-1440`, false);
      await closeProgress();
    }
    await e2e.setLanguage('en');
  });

  it('links the API docs from the Connection screen', async () => {
    for (const lang of ['en', 'zh'] as const) {
      if (lang === 'zh') await e2e.setLanguage('zh');
      await e2e.goto('connection');
      const card = page.getByTestId('connection-api-docs');
      await expect
        .poll(() => card.textContent(), POLL)
        .toContain((lang === 'en' ? enConnection : zhConnection).api_docs.open);
      const link = page.getByTestId('connection-api-docs-link');
      const href = await link.getAttribute('href');
      expect(href).toBe('/api/docs/');
      expect(await link.getAttribute('target')).toBe('_blank');
      const res = await fetch(new URL(href!, e2e.server.url));
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/swagger/i);
      await screenshot(page, `issue25c-connection-api-docs-${lang}-1440`, false);
    }
    await e2e.setLanguage('en');
  });

  it('never shows a refused photo’s raw code; the reason is translated and "What the engine saw" has a legend', async () => {
    await e2e.goto('results');
    await page.locator(`[data-testid="results-task"][data-task-id="${taskId}"]`).click();
    const field = await resultOf(ids.field);
    expect(field.error_code).toBe('not_a_specimen_photo');
    for (const lang of ['en', 'zh'] as const) {
      if (lang === 'zh') await e2e.setLanguage('zh');
      const texts = lang === 'en' ? enResults : zhResults;
      await page.locator(`[data-testid="result-card"][data-result-id="${field.id}"]`).click();
      await detail().waitFor();
      await expect
        .poll(() => detail().getByTestId('detail-error-title').textContent(), POLL)
        .toBe(texts.failure.not_a_specimen_photo.title);
      const reason = (await detail().getByTestId('detail-error-reason').textContent()) ?? '';
      expect(Object.values(texts.failure.reason).some((r) => reason.endsWith(r))).toBe(true);
      expect(await page.locator('.result-detail-modal').textContent()).not.toContain('not_a_specimen_photo');
      expect(await page.locator('.result-detail-modal').innerHTML()).not.toMatch(/>[^<]*not_a_specimen_photo/);
      const legend = detail().getByTestId('engine-saw-legend');
      await expect.poll(() => legend.textContent(), POLL).toContain(texts.detail.saw_legend.box);
      if (lang === 'zh') expect(englishSentences((await detail().textContent()) ?? '')).toEqual([]);
      await detail().getByTestId('detail-overview').scrollIntoViewIfNeeded();
      await screenshot(page, `issue25c-refused-legend-${lang}-1440`, false);
      await escapeDialog(page, detail());
    }
    await e2e.setLanguage('en');
  });

  it('the review keys work on a multi-specimen photo as the hint says', async () => {
    const three = await resultOf(ids.three);
    expect(three.specimens.length).toBe(3);
    expect(three.specimens.some((s: any) => s.needs_review)).toBe(false);
    await page.getByTestId('results-all-tasks').click();
    await page.locator(`[data-testid="result-card"][data-result-id="${three.id}"]`).click();
    await detail().waitFor();
    await expect.poll(() => title().textContent(), POLL).toBe('three.jpg');
    const keys = detail().getByTestId('review-keys');
    await expect.poll(() => keys.textContent(), POLL).toContain('A accept · X exclude');
    const target = () =>
      detail()
        .locator('[data-testid="specimen-card"]')
        .filter({ has: page.getByTestId('review-target') })
        .getAttribute('data-index');
    // Nothing is flagged: the keys walk the specimens, 1 first.
    await expect.poll(target, POLL).toBe('1');
    await page.keyboard.press('a');
    await expect
      .poll(
        async () => (await e2e.server.api(`/api/predictions/${three.id}/history/`)).body.map((h: any) => h.index),
        POLL,
      )
      .toEqual([1]);
    await expect.poll(target, POLL).toBe('2');
    // A click on a card (or its box on the photo) picks it: X excludes specimen 3.
    await detail().locator('[data-testid="specimen-card"][data-index="3"] [data-testid="specimen-number"]').click();
    await expect.poll(target, POLL).toBe('3');
    await page.keyboard.press('x');
    await expect
      .poll(async () => (await e2e.server.api(`/api/predictions/${three.id}/`)).body.specimens[2].excluded, POLL)
      .toBe(true);
    // The last one done, the next result opens (N / P move too).
    await expect.poll(() => title().textContent(), POLL).not.toBe('three.jpg');
    await page.keyboard.press('p');
    await expect.poll(() => title().textContent(), POLL).toBe('three.jpg');
    await page.keyboard.press('n');
    await expect.poll(() => title().textContent(), POLL).not.toBe('three.jpg');

    // On a photo with a flagged specimen, the "only those needing review" box leaves the keys working.
    const flagged = await resultOf(ids.flagged);
    await escapeDialog(page, detail());
    await page.locator(`[data-testid="result-card"][data-result-id="${flagged.id}"]`).click();
    await expect.poll(() => title().textContent(), POLL).toBe('flagged.jpg');
    await expect.poll(target, POLL).toBe('2');
    await detail().getByTestId('specimen-only-review').click();
    await page.keyboard.press('a');
    await expect
      .poll(async () => (await e2e.server.api(`/api/predictions/${flagged.id}/`)).body.needs_review, POLL)
      .toBe(false);
    await escapeDialog(page, detail());
  });

  it('looks right on a 390 px phone', async () => {
    await page.setViewportSize(PHONE);
    for (const lang of ['en', 'zh'] as const) {
      if (lang === 'zh') await e2e.setLanguage('zh');
      const field = await resultOf(ids.field);
      await page.locator(`[data-testid="result-card"][data-result-id="${field.id}"]`).click();
      await detail().getByTestId('engine-saw-legend').scrollIntoViewIfNeeded();
      await screenshot(page, `issue25c-refused-legend-${lang}-390`, false);
      await escapeDialog(page, detail());
      await e2e.goto('connection');
      await page.getByTestId('connection-api-docs').scrollIntoViewIfNeeded();
      await screenshot(page, `issue25c-connection-api-docs-${lang}-390`, false);
      await e2e.goto('images');
      await uploadThroughUi(page, 'multiple', [
        { name: `phone-ok-${lang}.png`, mimeType: 'image/png', buffer: await png(lang === 'en' ? 40 : 41) },
        { name: `phone-broken-${lang}.png`, mimeType: 'image/png', buffer: Buffer.from('not a png') },
      ]);
      await page.locator('[data-testid="upload-item"][data-status="error"]').waitFor();
      await screenshot(page, `issue25c-upload-failed-first-${lang}-390`, false);
      await closeProgress();
      // The duplicate dialog with Keep both, on a phone.
      await uploadThroughUi(page, 'multiple', [{ name: 'plot.jpg', mimeType: 'image/png', buffer: await png(50) }]);
      const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('duplicate-names') });
      await dialog.getByTestId('duplicate-keep-both').click();
      await screenshot(page, `issue25c-duplicate-keep-both-${lang}-390`, false);
      await dialog.locator('.ant-modal-close').click();
      await dialog.waitFor({ state: 'hidden' });
      await e2e.goto('results');
    }
  });
});
