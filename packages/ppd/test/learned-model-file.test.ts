import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitForest } from '../src/learned/flat-forest.js';
import { writeLabModelFile } from '../src/learned/lab-model-file.js';
import { FEATURE_COUNT, FEATURE_SETS, PHOTO_FEATURE_COUNT } from '../src/learned/pixel-features.js';
import { createEngine, InvalidLabModelError, readLabModelFile, type Engine } from '../src/index.js';
import { renderSceneJpeg } from '../src/synthetic/slice-scene.js';

/** A small real forest on `width` features: 4 classes told apart by the first features. */
function smallForest(width: number) {
  const rows = 400;
  const samples = new Float32Array(rows * width);
  const labels = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) {
    labels[r] = r % 4;
    for (let f = 0; f < width; f++) samples[r * width + f] = (r % 4) * 20 + ((r * 31 + f * 7) % 13);
  }
  return fitForest(samples, labels, width, 4, { trees: 3, perTree: 120, maxDepth: 6, maxFeatures: 0.6, seed: 2 });
}

/** What a trained model file holds: the first segmentation's forest and the lesion forest. */
function smallModelFile(): Buffer {
  const rows = 400;
  return writeLabModelFile({
    name: 'Lab A',
    forest: smallForest(PHOTO_FEATURE_COUNT),
    lesionForest: smallForest(FEATURE_COUNT),
    created: new Date('2026-11-27T00:00:00Z'),
    training: {
      image_count: 2,
      labelled_pixels: { background: 10, healthy: 10, lesion: 10, excluded: 0 },
      metrics: { pixel_accuracy: 0.9, lesion_iou: 0.7, ppd_mae: 0.3, baseline_ppd_mae: 0.6 },
      validation: 'leave-one-photo-out',
      samples: rows,
      seconds: 1.5,
    },
  });
}

const refused = (bytes: Uint8Array) => {
  try {
    readLabModelFile(bytes);
  } catch (err) {
    return err;
  }
  return null;
};

describe('the portable lab-model file', () => {
  const file = smallModelFile();

  it('reads back what was written, plain or gzipped, and names its format and version', () => {
    const json = JSON.parse(file.toString('utf8'));
    expect(json).toMatchObject({ format: 'cassavascope-lab-model', version: 1, name: 'Lab A' });
    expect(json.classes).toEqual(['background', 'healthy', 'lesion', 'excluded']);
    for (const bytes of [file, gzipSync(file)]) {
      const model = readLabModelFile(bytes);
      expect(model.name).toBe('Lab A');
      expect(model.created).toBe('2026-11-27T00:00:00.000Z');
      expect(model.forest.roots.length).toBe(3);
      expect(model.forest.featureCount).toBe(PHOTO_FEATURE_COUNT);
      expect(model.lesionForest?.featureCount).toBe(FEATURE_COUNT);
      expect(model.training.metrics).toEqual({
        pixel_accuracy: 0.9,
        lesion_iou: 0.7,
        ppd_mae: 0.3,
        baseline_ppd_mae: 0.6,
      });
    }
  });

  it('still reads a file of feature version 1: one forest on the photo features for both stages', () => {
    const json = JSON.parse(file.toString('utf8'));
    json.features = { version: 1, names: FEATURE_SETS[1] };
    delete json.lesion_forest;
    const model = readLabModelFile(Buffer.from(JSON.stringify(json)));
    expect(model.forest.featureCount).toBe(PHOTO_FEATURE_COUNT);
    expect(model.lesionForest).toBeNull();
  });

  it('refuses anything else with InvalidLabModelError saying what is wrong', () => {
    const json = JSON.parse(file.toString('utf8'));
    const variant = (change: (j: typeof json) => void) => {
      const copy = structuredClone(json);
      change(copy);
      return Buffer.from(JSON.stringify(copy));
    };
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(0), /empty/],
      [Buffer.from('PK\x03\x04 not a model'), /not JSON/],
      [file.subarray(0, file.length - 40), /not JSON/],
      [Buffer.from([0x1f, 0x8b, 1, 2, 3]), /gzip/],
      [Buffer.from('{"format":"onnx"}'), /format/],
      [variant((j) => (j.version = 2)), /version/],
      [variant((j) => (j.forest.left = j.forest.left.slice(1))), /length/],
      // a child pointing back at its parent would walk for ever
      [variant((j) => (j.forest.left[j.forest.roots[0]] = j.forest.roots[0])), /out of order|leaf/],
      [variant((j) => (j.features.names = ['L'])), /feature/],
      [variant((j) => (j.features.version = 9)), /not known/],
      [variant((j) => (j.lesion_forest.feature_count = PHOTO_FEATURE_COUNT)), /lesion_forest/],
      [new Uint8Array(5 * 1024 * 1024 + 1), /5 MB/],
    ];
    for (const [bytes, message] of cases) {
      const err = refused(bytes);
      expect(err).toBeInstanceOf(InvalidLabModelError);
      expect((err as InvalidLabModelError).code).toBe('invalid_lab_model');
      expect((err as Error).message).toMatch(message);
    }
  });

  describe('in the engine', () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await createEngine({ workers: 1 });
    });
    afterAll(async () => {
      await engine?.close();
    });

    it('answers a photo scored with a corrupt model with invalid_lab_model, and goes on scoring', async () => {
      const { jpeg } = await renderSceneJpeg({ width: 800, height: 600, seed: 3, slices: 2, background: 'dark' });
      const bad = await engine.analyse(jpeg, {}, 'full', { labModel: { id: 'bad', file: Buffer.from('{}') } });
      expect(bad.error_code).toBe('invalid_lab_model');
      expect(bad.ppd_value).toBeNull();
      const good = await engine.analyse(jpeg, {}, 'full', { labModel: { id: 'lab-a', file } });
      expect(good.error_code === null || good.error_code === 'no_specimen_found').toBe(true);
      const plain = await engine.analyse(jpeg);
      expect(plain.error_code).toBeNull();
    });
  });
});
