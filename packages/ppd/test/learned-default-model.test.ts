import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSliceModel, DEFAULT_SLICE_MODEL_URL } from '../src/learned/default-slice-model.js';
import { CBSD_HELDOUT, CBSD_TRAIN } from '../src/evaluate/cbsd-labelled-split.js';
import { createEngine, type Engine } from '../src/index.js';
import { CBSD_LABELLED, cbsdPhoto, haveCbsdLabelled, labelsPpd } from './helpers/cbsd-labelled.js';

describe('the shipped slice lesion classifier (issue 22 point 5)', () => {
  it('is a small valid lab-model file trained on the committed training part only', () => {
    const bytes = fs.readFileSync(DEFAULT_SLICE_MODEL_URL);
    expect(bytes.length).toBeLessThan(100 * 1024);
    const model = defaultSliceModel()!;
    expect(model.training.image_count).toBe(CBSD_TRAIN.length);
    expect(CBSD_HELDOUT.some((f) => CBSD_TRAIN.includes(f))).toBe(false);
  });

  describe.skipIf(!haveCbsdLabelled)('on held-out CBSD crops it never saw', () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await createEngine({ workers: 2 });
    });
    afterAll(async () => {
      await engine?.close();
    });

    it('reads 15 of them within 0.8 PPD of their labels on average', async () => {
      const file = fs.readFileSync(DEFAULT_SLICE_MODEL_URL);
      const ids = CBSD_HELDOUT.filter((_, i) => i % 3 === 0)
        .slice(0, 15)
        .map((f) => path.basename(f, '.png'))
        .filter((id) => fs.existsSync(path.join(CBSD_LABELLED, `${id}.png`)));
      const photos = await Promise.all(ids.map(cbsdPhoto));
      const results = await Promise.all(
        photos.map((p) => engine.analyse(Buffer.from(p.image), {}, 'full', { labModel: { id: 'cbsd-slices', file } })),
      );
      const mae =
        results.reduce((s, r, i) => s + Math.abs((r.ppd_value ?? 0) - labelsPpd(photos[i]!)), 0) / results.length;
      expect(results.every((r) => r.error_code === null)).toBe(true);
      expect(mae).toBeLessThan(0.8);
    }, 120_000);
  });
});
