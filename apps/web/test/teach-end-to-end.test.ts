import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enModels from '../src/locales/en/models.json';
import zhModels from '../src/locales/zh/models.json';
import enPrediction from '../src/locales/en/prediction.json';
import zhPrediction from '../src/locales/zh/prediction.json';
import { normalizeLabModel } from '../src/lib/lab-models';
import { DESKTOP, escapeDialog, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { toast } from './helpers/images-ui';
import { REPO_DIR } from './helpers/paths';

/**
 * Issue 23's "Done when", end to end, as a researcher does it in the browser, once in English and once in
 * Chinese: paint labels on real labelled CBSD slices (../shared/real-photos/cbsd-labelled) in the painter opened
 * from the Images preview, train a model from the Models screen's dialog, wait for its card to show it ready with
 * its PPD error beside the default engine's, choose it on Prediction, run a task, and find its name on Results.
 * Where to paint comes from each photo's source mask (magenta discoloured, grey 40,40,40 background, the rest
 * healthy): a few strokes per class along runs well inside that class. The API is used only to upload the photos
 * and to check what the screens show. Skipped when the photos are absent.
 * Screenshots go to /tmp/teach-shots (looked at by hand; never committed).
 */
const LABELLED = path.join(REPO_DIR, '../shared/real-photos/cbsd-labelled');
const RUNS = {
  en: { photos: ['cbsd_004', 'cbsd_005', 'cbsd_006'], model: 'Teach CBSD en', task: 'Teach task en' },
  zh: { photos: ['cbsd_007', 'cbsd_008', 'cbsd_016'], model: '教学木薯切片', task: '教学任务' },
} as const;
const TEXT = {
  en: { models: enModels, prediction: enPrediction },
  zh: { models: zhModels, prediction: zhPrediction },
} as const;
/** Brush radius in photo pixels after pressing "[" four times from the painter's 12 (12 -> 9 -> 6 -> 4 -> 2). */
const RADIUS = 2;
/** Label values of api.md painted here: background, healthy, discoloured. */
const CLASSES = [
  { value: 1, key: 'background' },
  { value: 2, key: 'healthy' },
  { value: 3, key: 'lesion' },
] as const;

let e2e: E2e;
let page: Page;
const allPhotos = [...RUNS.en.photos, ...RUNS.zh.photos];
const idOf = new Map<string, number>();

/** The source mask as label values (1 background, 2 healthy, 3 discoloured), with its size. */
async function maskClasses(name: string): Promise<{ width: number; height: number; cls: Uint8Array }> {
  const { data, info } = await sharp(path.join(LABELLED, `${name}_mask.png`))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const cls = new Uint8Array(info.width * info.height);
  for (let i = 0; i < cls.length; i++) {
    const [r, g, b] = [data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!];
    cls[i] = r > 200 && g < 60 && b > 200 ? 3 : r === 40 && g === 40 && b === 40 ? 1 : 2;
  }
  return { width: info.width, height: info.height, cls };
}

type Run = { y: number; x0: number; x1: number };

/**
 * Up to three horizontal runs of pixels of one class whose whole brush disc (plus a pixel) stays in that class,
 * longest first, on rows apart from each other: where a careful researcher would drag the brush.
 */
function strokesFor(mask: { width: number; height: number; cls: Uint8Array }, value: number): Run[] {
  const m = RADIUS + 1;
  const inside = (x: number, y: number) => {
    for (let dy = -m; dy <= m; dy++)
      for (let dx = -m; dx <= m; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= mask.width || yy >= mask.height) return false;
        if (mask.cls[yy * mask.width + xx] !== value) return false;
      }
    return true;
  };
  const runs: Run[] = [];
  for (let y = 0; y < mask.height; y++) {
    let start = -1;
    for (let x = 0; x <= mask.width; x++) {
      const ok = x < mask.width && inside(x, y);
      if (ok && start < 0) start = x;
      if (!ok && start >= 0) {
        runs.push({ y, x0: start, x1: x - 1 });
        start = -1;
      }
    }
  }
  runs.sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0));
  const picked: Run[] = [];
  for (const r of runs) {
    if (picked.every((p) => Math.abs(p.y - r.y) > 2 * m)) picked.push(r);
    if (picked.length === 3) break;
  }
  return picked;
}

async function shot(name: string): Promise<void> {
  await screenshot(page, `teach-${name}`, false);
}

const painter = () => page.getByTestId('label-painter');
const shareValue = async (key: string) =>
  parseFloat((await painter().getByTestId(`share-${key}`).textContent()) ?? '0');

/** Drags the brush along a run of photo pixels, mapped through where the photo is drawn on screen. */
async function paintRun(run: Run, width: number, height: number): Promise<void> {
  const box = (await painter().locator('canvas.label-painter-photo').boundingBox())!;
  const at = (x: number, y: number) =>
    [box.x + ((x + 0.5) / width) * box.width, box.y + ((y + 0.5) / height) * box.height] as const;
  await page.mouse.move(...at(run.x0, run.y));
  await page.mouse.down();
  await page.mouse.move(...at(run.x1, run.y), { steps: 8 });
  await page.mouse.up();
}

/** Opens the photo's painter from the Images preview, paints the three classes where its mask says, saves. */
async function paintPhoto(name: string, lang: 'en' | 'zh'): Promise<void> {
  await e2e.goto('images');
  await page.locator(`[data-testid="image-card"][data-image-name="${name}.png"] .image-card-thumb`).click();
  await page.getByTestId('preview-paint-labels').click();
  await painter().getByTestId('label-canvas').waitFor();
  await expect.poll(() => painter().getAttribute('data-unsaved'), POLL).toBe('false');
  const mask = await maskClasses(name);
  for (let i = 0; i < 4; i++) await page.keyboard.press('[');
  for (const c of CLASSES) {
    const runs = strokesFor(mask, c.value);
    expect(runs.length, `${name}: somewhere to paint class ${c.key}`).toBeGreaterThan(0);
    await page.keyboard.press(String(c.value));
    for (const run of runs) await paintRun(run, mask.width, mask.height);
    await expect.poll(() => shareValue(c.key), POLL).toBeGreaterThan(0);
  }
  await shot(`${lang}-painted-${name}`);
  await painter().getByTestId('save-labels').click();
  await expect.poll(() => painter().getAttribute('data-unsaved'), POLL).toBe('false');
  const saved = JSON.parse((await painter().getAttribute('data-saved-counts')) ?? '{}');
  for (const c of CLASSES) expect(saved[c.key], `${name}: saved ${c.key}`).toBeGreaterThan(0);
  // The painted pixels agree with the source mask (what the researcher meant), checked on the server's labels.
  const res = await fetch(`${e2e.server.url}/api/images/${idOf.get(name)}/labels/`);
  expect(res.status).toBe(200);
  const labels = await sharp(Buffer.from(await res.arrayBuffer()))
    .extractChannel(0)
    .raw()
    .toBuffer();
  expect(labels.length).toBe(mask.width * mask.height);
  let painted = 0;
  let agree = 0;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] === 0) continue;
    painted++;
    if (labels[i] === mask.cls[i]) agree++;
  }
  expect(agree / painted).toBeGreaterThan(0.95);
  await painter().getByTestId('close-painter').click();
  await painter().waitFor({ state: 'detached' });
  await escapeDialog(page, page.getByTestId('image-preview'));
}

describe.skipIf(!fs.existsSync(LABELLED))('teach the engine end to end (e2e)', () => {
  beforeAll(async () => {
    e2e = await startE2e();
    page = e2e.page;
    const files = allPhotos.map((name) => ({
      name: `${name}.png`,
      bytes: fs.readFileSync(path.join(LABELLED, `${name}.png`)),
    }));
    const up = await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' });
    expect(up.status).toBe(201);
    for (const u of up.body.uploaded as { id: number; name: string }[]) idOf.set(u.name.replace(/\.png$/, ''), u.id);
    expect(idOf.size).toBe(allPhotos.length);
    await e2e.open();
    await page.setViewportSize(DESKTOP);
  }, 120_000);

  afterAll(async () => {
    await e2e?.close();
  });

  describe.each(['en', 'zh'] as const)('%s', (lang) => {
    const run = RUNS[lang];
    const tx = TEXT[lang];
    let modelId = 0;

    it('paints background, healthy and discoloured strokes on real slices and saves them', async () => {
      if (lang === 'zh') await e2e.setLanguage('zh');
      for (const name of run.photos) await paintPhoto(name, lang);
      const labelled = await e2e.server.api('/api/images/?has_labels=true');
      const ids = (labelled.body.results as { id: number }[]).map((i) => i.id);
      for (const name of run.photos) expect(ids).toContain(idOf.get(name));
    }, 90_000);

    it('trains a model from the Models dialog and shows it ready with its error beside the default', async () => {
      await e2e.goto('models');
      await page.getByTestId('models-train').click();
      const labelledNow = lang === 'en' ? 3 : 6;
      await expect
        .poll(() => page.getByTestId('train-labelled-count').textContent(), POLL)
        .toContain(tx.models.train.labelled_count_other.replace('{{count}}', String(labelledNow)));
      await page.getByTestId('train-name').fill(run.model);
      await shot(`${lang}-train-dialog`);
      await page.getByTestId('train-start').click();
      await toast(page, tx.models.train.started.replace('{{name}}', run.model));
      const card = page
        .getByTestId('model-card')
        .filter({ has: page.getByTestId('model-name').getByText(run.model, { exact: true }) });
      await card.waitFor();
      modelId = Number(await card.getAttribute('data-model-id'));
      // The card follows the training by itself: wait on what it shows (a failure says why at once).
      await expect
        .poll(
          async () => {
            const status = await card.getByTestId('model-status').getAttribute('data-status');
            if (status === 'failed' || status === 'cancelled')
              throw new Error(`training ${status}: ${await card.textContent()}`);
            return status;
          },
          { timeout: 150_000, interval: 500 },
        )
        .toBe('ready');
      expect(await card.getByTestId('model-status').textContent()).toBe(tx.models.status.ready);
      const model = normalizeLabModel((await e2e.server.api(`/api/models/${modelId}/`)).body);
      expect(model.status).toBe('ready');
      const metrics = model.metrics!;
      const mae = card.getByTestId('metric-ppd-mae');
      const baseline = card.getByTestId('metric-baseline-mae');
      await mae.waitFor();
      expect(await mae.textContent()).toBe(metrics.ppdMae!.toFixed(2));
      expect(await baseline.textContent()).toBe(metrics.baselinePpdMae!.toFixed(2));
      // The verdict says plainly whether the lab model beats the default on the photos it did not train on.
      const verdict = (await card.getByTestId('model-verdict').textContent()) ?? '';
      expect(Object.values(tx.models.verdict).some((v) => verdict.includes(v))).toBe(true);
      console.info(
        `teach-end-to-end (${lang}): lab model PPD MAE ${metrics.ppdMae} vs default ${metrics.baselinePpdMae} on held-out photos`,
      );
      await card.scrollIntoViewIfNeeded();
      await shot(`${lang}-model-ready`);
    }, 180_000);

    it('runs a task with the lab model from Prediction and finds its name on Results', async () => {
      await e2e.goto('prediction');
      await page.locator('.prediction-folder').first().click();
      await page.getByTestId('select-all').click();
      await expect.poll(() => page.getByTestId('estimated-images').textContent(), POLL).toBe(String(allPhotos.length));
      await page
        .getByTestId('specimen-kind')
        .getByText(tx.prediction.config.specimen_kinds.root_slice, { exact: true })
        .click();
      const labLabel = tx.prediction.config.model_lab.replace('{{name}}', run.model);
      await page.getByTestId('model-select').click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: labLabel })
        .click();
      await expect.poll(() => page.getByTestId('prediction-summary').textContent(), POLL).toContain(run.model);
      await shot(`${lang}-prediction`);
      await page.getByTestId('create-task').click();
      const dialog = page.locator('.ant-modal').filter({ hasText: tx.prediction.confirm.title });
      await dialog.locator('#confirm-task-name').fill(run.task);
      await dialog.getByRole('button', { name: tx.prediction.confirm.ok }).click();
      await dialog.waitFor({ state: 'detached' });
      const tasks = (await e2e.server.api(`/api/tasks/?search=${encodeURIComponent(run.task)}`)).body.results as {
        id: number;
        model_id: number | null;
      }[];
      expect(tasks).toHaveLength(1);
      expect(tasks[0]!.model_id).toBe(modelId);

      // Results: the task's cards name the lab model once scored (the list follows the running task).
      await e2e.goto('results');
      const card = page
        .getByTestId('result-card')
        .filter({ has: page.getByTestId('result-model').getByText(run.model) })
        .first();
      await card.waitFor({ timeout: 120_000 });
      await shot(`${lang}-results`);
      await card.click();
      await expect.poll(() => page.getByTestId('detail-model').textContent(), POLL).toBe(labLabel);
      await shot(`${lang}-result-detail`);
      await escapeDialog(page, page.getByTestId('result-detail'));
    }, 180_000);
  });
});
