import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enModels from '../src/locales/en/models.json';
import zhModels from '../src/locales/zh/models.json';
import enPrediction from '../src/locales/en/prediction.json';
import zhPrediction from '../src/locales/zh/prediction.json';
import { verdictOf } from '../src/features/models/model-verdict';
import { normalizeLabModel, type LabModelView } from '../src/lib/lab-models';
import { DESKTOP, escapeDialog, PHONE, POLL, screenshot, screenshotNow } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { toast } from './helpers/images-ui';
import { REPO_DIR } from './helpers/paths';

/**
 * Issues 22 and 23 (web side) in a real browser against the real server, in English and Chinese, at 1440 and
 * 390 px: the Prediction configuration offers Specimen kind and Model (the default engine and each ready lab
 * model); the Models screen lists a model trained through the API from labels PUT on real labelled slices
 * (../shared/real-photos/cbsd-labelled: the source's per-pixel labels turned into label PNGs) with its figures
 * beside the default engine's and a plain verdict; a task scored with the lab model names it on its results;
 * "Score again with a model" hands a task's images to Prediction with the chosen model.
 * Where the photos are absent, or the server has no models API yet, the screens are checked without a model
 * (the empty state) and the model-specific checks are skipped, saying so.
 * Screenshots go to /tmp/models-shots (looked at by hand; never committed).
 */
const LABELLED = path.join(REPO_DIR, '../shared/real-photos/cbsd-labelled');
const PHOTOS = ['cbsd_004', 'cbsd_005', 'cbsd_006', 'cbsd_007', 'cbsd_008'];
const MODEL_NAME = 'CBSD slices 木薯切片';
const TEXT = {
  en: { models: enModels, prediction: enPrediction },
  zh: { models: zhModels, prediction: zhPrediction },
} as const;

let e2e: E2e;
let page: Page;
/** the trained model as the server describes it; null when it could not be trained here (said in the log) */
let model: LabModelView | null = null;
let imageIds: number[] = [];

/**
 * The source's mask as a label PNG of api.md: magenta (labelled necrotic) -> 3 discoloured, the painted grey
 * surround (40,40,40) -> 1 background, every other slice pixel -> 2 healthy.
 */
async function labelPng(maskFile: string): Promise<Buffer> {
  const { data, info } = await sharp(maskFile).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(info.width * info.height);
  for (let i = 0; i < out.length; i++) {
    const [r, g, b] = [data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!];
    out[i] = r > 200 && g < 60 && b > 200 ? 3 : r === 40 && g === 40 && b === 40 ? 1 : 2;
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

async function putLabels(imageId: number, png: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'labels.png');
  const res = await fetch(`${e2e.server.url}/api/images/${imageId}/labels/`, { method: 'PUT', body: form });
  return res.status;
}

/** Uploads the labelled slices, PUTs their labels and trains a model through the API; null when it cannot. */
async function trainThroughApi(): Promise<LabModelView | null> {
  if (!fs.existsSync(LABELLED)) {
    console.warn(`models-screen: ${LABELLED} is absent: the model-specific checks are skipped`);
    return null;
  }
  if ((await e2e.server.api('/api/models/')).status !== 200) {
    console.warn('models-screen: this server has no GET /api/models/ yet: the model-specific checks are skipped');
    return null;
  }
  const files = PHOTOS.map((name) => ({
    name: `${name}.png`,
    bytes: fs.readFileSync(path.join(LABELLED, `${name}.png`)),
  }));
  const up = await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' });
  expect(up.status).toBe(201);
  imageIds = (up.body.uploaded as { id: number; name: string }[]).map((u) => u.id);
  expect(imageIds).toHaveLength(PHOTOS.length);
  for (const [i, id] of imageIds.entries())
    expect(await putLabels(id, await labelPng(path.join(LABELLED, `${PHOTOS[i]}_mask.png`)))).toBe(200);
  const started = await e2e.server.api('/api/models/', { method: 'POST', body: { name: MODEL_NAME } });
  expect(started.status).toBe(202);
  let body = started.body;
  // Training runs in the background: wait for it to end (ready, or failed with its message in the assertion).
  const deadline = Date.now() + 240_000;
  while (body.status === 'training' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    body = (await e2e.server.api(`/api/models/${started.body.id}/`)).body;
  }
  expect(body.status, `training ended ${body.status}: ${body.error_message}`).toBe('ready');
  return normalizeLabModel(body);
}

async function shot(name: string): Promise<void> {
  await screenshot(page, name);
}

/** The page is not wider than the window (nothing sticks out sideways at 390 px). */
const overflowsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  model = await trainThroughApi();
  await e2e.open();
}, 300_000);

afterAll(async () => {
  await e2e?.close();
});

describe.each(['en', 'zh'] as const)('lab models on screen (%s)', (lang) => {
  const tx = TEXT[lang];

  it('the Prediction configuration offers Specimen kind and Model', async () => {
    if (lang === 'zh') await e2e.setLanguage('zh');
    await page.setViewportSize(DESKTOP);
    await e2e.goto('prediction');
    const kinds = page.getByTestId('specimen-kind');
    await expect
      .poll(() => kinds.locator('.ant-radio-button-wrapper').allTextContents(), POLL)
      .toEqual([
        tx.prediction.config.specimen_kinds.auto,
        tx.prediction.config.specimen_kinds.root_slice,
        tx.prediction.config.specimen_kinds.leaf,
      ]);
    // Auto is the default, and the hint says what each choice means.
    await expect
      .poll(() => kinds.locator('.ant-radio-button-wrapper-checked').textContent(), POLL)
      .toBe(tx.prediction.config.specimen_kinds.auto);
    await kinds.getByText(tx.prediction.config.specimen_kinds.leaf, { exact: true }).click();
    await expect
      .poll(() => kinds.locator('.prediction-field-hint').textContent(), POLL)
      .toBe(tx.prediction.config.specimen_kind_hint.leaf);
    await kinds.getByText(tx.prediction.config.specimen_kinds.auto, { exact: true }).click();

    // The default engine is chosen, named by the server; every ready lab model is offered beside it.
    const engine = (await e2e.server.api('/api/status/')).body.engine.label as string;
    const select = page.getByTestId('model-select');
    const defaultText = tx.prediction.config.model_default.replace('{{engine}}', '');
    await expect.poll(() => select.textContent(), POLL).toContain(defaultText.trim());
    if (lang === 'en') await expect.poll(() => select.textContent(), POLL).toContain(engine);
    if (model) {
      await expect
        .poll(() => page.getByTestId('tile-models').locator('.ant-statistic-content').textContent(), POLL)
        .toContain('2');
      await select.click();
      const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
      await expect
        .poll(() => options.allTextContents(), POLL)
        .toContain(tx.prediction.config.model_lab.replace('{{name}}', MODEL_NAME));
      await shot(`prediction-model-open-${lang}-1440`);
      await page.keyboard.press('Escape');
    } else {
      console.warn('models-screen: no lab model, so the Model select offers the default engine only');
    }
    await page.getByTestId('specimen-kind').scrollIntoViewIfNeeded();
    await shot(`prediction-${lang}-1440`);
  });

  it('the Models screen lists the model with its figures beside the default engine', async () => {
    await e2e.goto('models');
    if (!model) {
      // No model: the empty state explains how to teach the engine.
      const empty = page.getByTestId('models-empty');
      await empty.waitFor();
      expect(await empty.textContent()).toContain(tx.models.empty.title);
      expect(await empty.textContent()).toContain(tx.models.empty.step_paint);
      await shot(`models-empty-${lang}-1440`);
      return;
    }
    const card = page.locator(`[data-testid="model-card"][data-model-id="${model.id}"]`);
    await card.waitFor();
    expect(await card.getByTestId('model-name').textContent()).toBe(MODEL_NAME);
    expect(await card.getByTestId('model-status').textContent()).toBe(tx.models.status.ready);
    expect(await card.getByTestId('model-photos').textContent()).toBe(String(model.imageCount));
    expect(model.imageCount).toBe(PHOTOS.length);
    expect(await card.getByTestId('model-pixels').textContent()).toContain(
      tx.models.pixels.lesion.replace('{{n}}', model.labelledPixels.lesion.toLocaleString('en-US')),
    );
    if (model.metrics) {
      const m = model.metrics;
      expect(await card.getByTestId('metric-ppd-mae').textContent()).toBe(m.ppdMae!.toFixed(2));
      expect(await card.getByTestId('metric-baseline-mae').textContent()).toBe(m.baselinePpdMae!.toFixed(2));
      expect(await card.getByTestId('metric-pixel-accuracy').textContent()).toBe(
        `${(m.pixelAccuracy! * 100).toFixed(1)}%`,
      );
      expect(await card.getByTestId('metric-lesion-iou').textContent()).toBe(`${(m.lesionIou! * 100).toFixed(1)}%`);
      // The verdict is said plainly, and agrees with the two errors.
      const verdict = verdictOf(m);
      const alert = card.getByTestId('model-verdict');
      expect(await alert.getAttribute('data-verdict')).toBe(verdict);
      expect(await alert.textContent()).toContain(tx.models.verdict[verdict as 'better' | 'worse' | 'same']);
      console.info(
        `models-screen: lab model PPD MAE ${m.ppdMae} vs default ${m.baselinePpdMae} (${verdict}); pixel accuracy ${m.pixelAccuracy}, lesion IoU ${m.lesionIou}`,
      );
    } else {
      console.warn('models-screen: the server gave this model no metrics');
    }
    // Before / after on the held-out photos.
    await card.getByTestId('model-heldout-toggle').click();
    if (model.heldout.length > 0) {
      await expect.poll(() => card.locator('.model-heldout-row').count(), POLL).toBe(model.heldout.length);
      // Each held-out photo is named by its file.
      await expect
        .poll(async () => (await card.locator('.model-heldout-name').allTextContents()).sort(), POLL)
        .toEqual(model.heldout.map((h) => `${PHOTOS[imageIds.indexOf(h.imageId!)]}.png`).sort());
      await expect
        .poll(
          () =>
            card
              .locator('.model-heldout-row img')
              .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
          POLL,
        )
        .toBe(true);
    }
    await shot(`models-${lang}-1440`);
    // The train dialog says how many photos carry labels and what a training needs.
    await page.getByTestId('models-train').click();
    const count = page.getByTestId('train-labelled-count');
    await expect
      .poll(() => count.textContent(), POLL)
      .toContain(
        (PHOTOS.length === 1 ? tx.models.train.labelled_count_one : tx.models.train.labelled_count_other).replace(
          '{{count}}',
          String(PHOTOS.length),
        ),
      );
    expect(await count.textContent()).toContain(tx.models.train.needs);
    await shot(`models-train-${lang}-1440`);
    await escapeDialog(page, page.getByTestId('train-dialog'));
  });

  it('at 390 px the Models and Prediction screens fit the phone', async () => {
    await page.setViewportSize(PHONE);
    await e2e.goto('models');
    await (model ? page.getByTestId('model-card').first() : page.getByTestId('models-empty')).waitFor();
    expect(await overflowsSideways()).toBe(false);
    await shot(`models-${lang}-390`);
    await e2e.goto('prediction');
    await page.getByTestId('specimen-kind').waitFor();
    expect(await overflowsSideways()).toBe(false);
    const kinds = await page.getByTestId('specimen-kind').boundingBox();
    expect(kinds!.x + kinds!.width).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('specimen-kind').scrollIntoViewIfNeeded();
    await screenshotNow(page, `prediction-config-${lang}-390`);
    await page.setViewportSize(DESKTOP);
  });
});

describe('scoring with the lab model', () => {
  it('a task run with the lab model names it on its results, and can be scored again', async (ctx) => {
    if (!model) {
      console.warn('models-screen: no lab model: the task with a lab model is not run');
      ctx.skip();
      return;
    }
    await e2e.setLanguage('en');
    await page.setViewportSize(DESKTOP);
    await e2e.goto('prediction');
    // Pick the five slices, choose the lab model and Root slices, create the task.
    await page.locator('.prediction-folder').first().click();
    await page.getByTestId('select-all').click();
    await expect.poll(() => page.getByTestId('estimated-images').textContent(), POLL).toBe(String(PHOTOS.length));
    await page.getByTestId('specimen-kind').getByText('Root slices', { exact: true }).click();
    await page.getByTestId('model-select').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: `Lab model: ${MODEL_NAME}` })
      .click();
    await expect.poll(() => page.getByTestId('prediction-summary').textContent(), POLL).toContain(MODEL_NAME);
    await page.getByTestId('create-task').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Confirm prediction task' });
    await dialog.locator('#confirm-task-name').fill('Lab model trial');
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The server got the model and the kind.
    const tasks = (await e2e.server.api('/api/tasks/?search=Lab%20model%20trial')).body.results as {
      id: number;
      model_id: number | null;
      specimen_kind: string;
      status: string;
    }[];
    expect(tasks).toHaveLength(1);
    const task = tasks[0]!;
    expect(task.model_id).toBe(model.id);
    expect(task.specimen_kind).toBe('root_slice');
    await expect
      .poll(async () => (await e2e.server.api(`/api/tasks/${task.id}/`)).body.status, {
        timeout: 120_000,
        interval: 300,
      })
      .toBe('completed');

    // Task details name the model and the kind.
    await e2e.goto('tasks');
    await page
      .locator('[data-testid="task-row"]')
      .filter({ hasText: 'Lab model trial' })
      .first()
      .getByTestId('task-details')
      .click();
    const details = page.getByTestId('task-details-panel');
    await details.waitFor();
    expect(await details.getByTestId('task-model').textContent()).toBe(`Lab model: ${MODEL_NAME}`);
    expect(await details.getByTestId('task-specimen-kind').textContent()).toBe('Root slices');
    await shot('task-details-en-1440');

    // Score again with the default engine: Prediction opens with the task's images picked and the model chosen.
    await page.getByTestId('task-score-again').click();
    const again = page.getByTestId('score-again-dialog');
    await again.waitFor();
    await page.getByTestId('score-again-model').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: '(default)' })
      .click();
    await page.getByTestId('score-again-ok').click();
    await page.locator('[data-section="prediction"]').waitFor();
    await expect.poll(() => page.getByTestId('rerun-notice').textContent(), POLL).toContain('Lab model trial');
    await expect.poll(() => page.getByTestId('estimated-images').textContent(), POLL).toBe(String(PHOTOS.length));
    await expect.poll(() => page.getByTestId('model-select').textContent(), POLL).toContain('(default)');
    await expect
      .poll(() => page.getByTestId('specimen-kind').locator('.ant-radio-button-wrapper-checked').textContent(), POLL)
      .toBe('Root slices');
    await shot('prediction-score-again-en-1440');

    // Results of the lab-model task name the model, on the card and in the detail.
    await e2e.goto('results');
    const card = page
      .getByTestId('result-card')
      .filter({ has: page.getByTestId('result-model') })
      .first();
    await card.waitFor();
    expect(await card.getByTestId('result-model').textContent()).toContain(MODEL_NAME);
    await card.click();
    await expect.poll(() => page.getByTestId('detail-model').textContent(), POLL).toBe(`Lab model: ${MODEL_NAME}`);
    await shot('result-detail-en-1440');
    await escapeDialog(page, page.getByTestId('detail-model'));
    // In Chinese the task's model is named in Chinese on Results (the server's label is English).
    await e2e.setLanguage('zh');
    await expect
      .poll(
        () =>
          page
            .getByTestId('results-task')
            .filter({ hasText: 'Lab model trial' })
            .locator('.results-task-meta')
            .allTextContents(),
        POLL,
      )
      .toContain(`实验室模型：${MODEL_NAME}`);
    await shot('results-zh-1440');
    await e2e.setLanguage('en');
  });
});

describe('managing models in the browser', () => {
  it('trains from the dialog and cancels, renames, downloads, imports and deletes', async (ctx) => {
    if (!model) {
      console.warn('models-screen: no models API or photos: managing models is not tested');
      ctx.skip();
      return;
    }
    await e2e.setLanguage('en');
    await page.setViewportSize(DESKTOP);
    await e2e.goto('models');
    const cards = page.getByTestId('model-card');
    const cardNamed = (name: string) =>
      cards.filter({ has: page.getByTestId('model-name').getByText(name, { exact: true }) });

    // Train from the dialog: every labelled photo; the new card shows live progress, and can be cancelled.
    await page.getByTestId('models-train').click();
    await page.getByTestId('train-name').fill('From the dialog');
    await page.getByTestId('train-start').click();
    await toast(page, 'Training of "From the dialog" started');
    const fresh = cardNamed('From the dialog');
    await fresh.waitFor();
    if ((await fresh.getByTestId('model-status').getAttribute('data-status')) === 'training') {
      await fresh.getByTestId('model-progress').waitFor();
      await shot('models-training-en-1440');
      await fresh.getByTestId('model-cancel').click();
      await expect.poll(() => fresh.getByTestId('model-status').getAttribute('data-status'), POLL).toBe('cancelled');
    } else {
      console.warn('models-screen: the training ended before it could be cancelled');
    }

    // Rename the trained model.
    const trained = page.locator(`[data-testid="model-card"][data-model-id="${model!.id}"]`);
    await trained.getByTestId('model-rename').click();
    await page.getByTestId('rename-input').fill('CBSD slices, renamed');
    await page.getByTestId('rename-input').press('Enter');
    await expect.poll(() => trained.getByTestId('model-name').textContent(), POLL).toBe('CBSD slices, renamed');

    // Download its file, and import it back: a second ready model.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      trained.getByTestId('model-download').click(),
    ]);
    const file = await download.path();
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(5 * 1024 * 1024);
    const before = await cards.count();
    await page.getByTestId('models-import-input').setInputFiles({
      name: 'cbsd.cassavamodel',
      mimeType: 'application/octet-stream',
      buffer: fs.readFileSync(file),
    });
    await expect.poll(() => cards.count(), POLL).toBe(before + 1);
    const imported = cards.first();
    await expect.poll(() => imported.getByTestId('model-status').getAttribute('data-status'), POLL).toBe('ready');
    // A file that is not a model is refused with its name.
    await page.getByTestId('models-import-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a model'),
    });
    await toast(page, 'notes.txt is not a CassavaScope model file');
    await shot('models-managed-en-1440');

    // Delete the imported copy (after confirming).
    const importedId = await imported.getAttribute('data-model-id');
    await imported.getByTestId('model-delete').click();
    await page.getByTestId('model-delete-ok').click();
    await page.locator(`[data-testid="model-card"][data-model-id="${importedId}"]`).waitFor({ state: 'detached' });
    expect((await e2e.server.api(`/api/models/${importedId}/`)).status).toBe(404);
  });
});
