import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEngine,
  LABEL,
  readLabModelFile,
  trainLabModel,
  TrainingError,
  type Engine,
  type LabelledPhoto,
  type TrainedLabModel,
} from '../src/index.js';
import { cbsdIds, cbsdPhoto, haveCbsdLabelled, labelsPpd } from './helpers/cbsd-labelled.js';

const isWebp = (b: Buffer) => b.subarray(0, 4).toString() === 'RIFF' && b.subarray(8, 12).toString() === 'WEBP';
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe.skipIf(!haveCbsdLabelled)('a lab model trained on 3 real labelled CBSD slices', () => {
  let engine: Engine;
  let trained: TrainedLabModel;
  const progress: number[] = [];
  let train: LabelledPhoto[];
  let others: LabelledPhoto[];

  beforeAll(async () => {
    const ids = cbsdIds();
    train = await Promise.all(ids.slice(0, 3).map(cbsdPhoto));
    // ten others spread over the set, none trained on
    others = await Promise.all(
      ids
        .slice(3)
        .filter((_, i) => i % 13 === 0)
        .slice(0, 10)
        .map(cbsdPhoto),
    );
    engine = await createEngine({ workers: 2 });
    trained = await trainLabModel(train, { name: 'CBSD test', trees: 8, onProgress: (p) => progress.push(p) });
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('reports progress, metrics beside the default engine, and each photo held out once with its overlays', () => {
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(trained.image_count).toBe(3);
    expect(trained.labelled_pixels.healthy).toBeGreaterThan(0);
    expect(trained.labelled_pixels.lesion).toBeGreaterThan(0);
    const m = trained.metrics!;
    expect(m.pixel_accuracy).toBeGreaterThan(0.8);
    expect(m.lesion_iou).toBeGreaterThan(0.5);
    expect(m.ppd_mae).toBeGreaterThanOrEqual(0);
    expect(m.baseline_ppd_mae).toBeGreaterThanOrEqual(0);
    expect(trained.heldout.map((h) => h.id).sort()).toEqual(train.map((p) => p.id).sort());
    for (const h of trained.heldout) {
      expect(h.labels_ppd).toBeCloseTo(labelsPpd(train.find((p) => p.id === h.id)!), 1);
      expect(isWebp(h.model_overlay)).toBe(true);
      expect(isWebp(h.baseline_overlay)).toBe(true);
    }
  });

  it('writes a portable file under 5 MB that reads back with its name, metrics and trees', () => {
    expect(trained.file.byteLength).toBeLessThan(5 * 1024 * 1024);
    const model = readLabModelFile(trained.file);
    expect(model.name).toBe('CBSD test');
    expect(model.training.image_count).toBe(3);
    expect(model.training.validation).toBe('leave-one-photo-out');
    expect(model.forest.roots.length).toBe(8);
    expect(model.training.metrics!.ppd_mae).toBeCloseTo(trained.metrics!.ppd_mae, 3);
  });

  it('scores 10 slices it never saw within 1.2 PPD of their labels on average, with the default result shape', async () => {
    const labModel = { id: 'cbsd-test', file: trained.file };
    const results = await Promise.all(
      others.map((p) => engine.analyse(Buffer.from(p.image), {}, 'full', { labModel })),
    );
    for (const r of results) {
      expect(r.error_code).toBeNull();
      expect(r.specimens.length).toBeGreaterThanOrEqual(1);
      expect(r.images.pred).toHaveLength(r.specimens.length);
    }
    const errors = results.map((r, i) => Math.abs(r.ppd_value! - labelsPpd(others[i]!)));
    expect(mean(errors)).toBeLessThan(1.2);
  });
});

describe('training refuses what it cannot learn from, and can be cancelled', () => {
  const blank = (w: number, h: number, fill: (i: number) => number) => ({
    width: w,
    height: h,
    values: Uint8Array.from({ length: w * h }, (_, i) => fill(i)),
  });
  const photo = (id: string, fill: (i: number) => number): LabelledPhoto => ({
    id,
    image: new Uint8Array([1, 2, 3]),
    labels: blank(40, 30, fill),
  });

  it('refuses fewer than 2 labelled photos, and labels with no discoloured pixel', async () => {
    const healthyAndLesion = (i: number) => (i % 3 === 0 ? LABEL.lesion : LABEL.healthy);
    await expect(trainLabModel([photo('a', healthyAndLesion)], { name: 'x' })).rejects.toMatchObject({
      code: 'not_enough_labels',
    });
    await expect(
      trainLabModel([photo('a', healthyAndLesion), photo('b', () => LABEL.unlabelled)], { name: 'x' }),
    ).rejects.toBeInstanceOf(TrainingError);
    const noLesion = (i: number) => (i % 2 ? LABEL.healthy : LABEL.background);
    await expect(trainLabModel([photo('a', noLesion), photo('b', noLesion)], { name: 'x' })).rejects.toMatchObject({
      code: 'not_enough_labels',
      message: expect.stringMatching(/discoloured/),
    });
  });

  it.skipIf(!haveCbsdLabelled)(
    'stops when its signal is aborted, rejecting with an AbortError',
    async () => {
      const photos = await Promise.all(cbsdIds().slice(0, 4).map(cbsdPhoto));
      const controller = new AbortController();
      const seen: number[] = [];
      const training = trainLabModel(photos, {
        name: 'cancelled',
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          controller.abort();
        },
      });
      await expect(training).rejects.toMatchObject({ name: 'AbortError' });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.at(-1)).toBeLessThan(100);
    },
    60_000,
  );
});
