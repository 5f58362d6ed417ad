import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { renderSceneJpeg } from '../src/synthetic/slice-scene.js';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 2 });
});
afterAll(async () => {
  await engine?.close();
});

const overlap = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? (w * h) / Math.min(a.w * a.h, b.w * b.h) : 0;
};

describe('colour engine', () => {
  it('names itself honestly', () => {
    expect(engine.info).toEqual({ name: 'colour', label: 'Colour segmentation (CIELAB)', kind: 'colour' });
  });

  it('scores a photo of two slices: values, boxes in original pixels, and six WebP visualisations', async () => {
    const { jpeg, scene } = await renderSceneJpeg({
      width: 1600,
      height: 1000,
      seed: 11,
      slices: 2,
      background: 'dark',
      ppd: [2, 6],
    });
    const r = await engine.analyse(jpeg);
    expect(r.error_code).toBeNull();
    expect(r.cuts).toHaveLength(2);
    expect(r.sub_ppd_values).toHaveLength(2);
    // reading order: left slice first; boxes are in the 1600 x 1000 original, not the working size
    r.cuts.forEach((cut, i) => expect(overlap(cut, scene.slices[i]!.box)).toBeGreaterThan(0.9));
    expect(r.cuts[1]!.x + r.cuts[1]!.w).toBeGreaterThan(1024);
    r.sub_ppd_values.forEach((v, i) => expect(Math.abs(v - scene.slices[i]!.ppd)).toBeLessThan(1));
    expect(Math.abs(r.ppd_value! - (r.sub_ppd_values[0]! + r.sub_ppd_values[1]!) / 2)).toBeLessThanOrEqual(0.0051);
    expect(r.prediction).toBe(r.ppd_value! >= 4 ? 'mild' : 'healthy');
    expect(r.confidence).toBeGreaterThan(0.5);
    expect(r.confidence).toBeLessThanOrEqual(1);
    expect(r.images.cut2).toHaveLength(2);
    expect(r.images.pred).toHaveLength(2);
    for (const img of [...r.images.cut2, ...r.images.pred, r.images.overview!]) {
      expect(Buffer.isBuffer(img)).toBe(true);
      expect((await sharp(img).metadata()).format).toBe('webp');
    }
    expect(r.processing_time).toBeGreaterThan(0);
  });

  it('cuts mode finds the specimens without scoring them', async () => {
    const { jpeg } = await renderSceneJpeg({ width: 800, height: 600, seed: 12, slices: 3, background: 'blue' });
    const r = await engine.analyse(jpeg, {}, 'cuts');
    expect(r.error_code).toBeNull();
    expect(r.cuts).toHaveLength(3);
    expect(r.images.cut2).toHaveLength(3);
    expect(r.images.pred).toHaveLength(0);
    expect(r.ppd_value).toBeNull();
    expect(r.sub_ppd_values).toEqual([]);
  });

  it('answers bad parameters and unreadable bytes with an error code instead of throwing', async () => {
    const bad = await engine.analyse(Buffer.from('not an image'), { threshold: 2 });
    expect(bad.error_code).toBe('invalid_parameters');
    expect(bad.error_message).toContain('threshold');
    const even = await engine.analyse(Buffer.from('x'), { morph_kernel_size: 4 });
    expect(even.error_code).toBe('invalid_parameters');
    const garbage = await engine.analyse(Buffer.from('definitely not an image'));
    expect(garbage.error_code).toBe('decode_failed');
    expect(garbage.ppd_value).toBeNull();
  });

  it('leaves the caller its buffer and reads file paths too', async () => {
    const { jpeg } = await renderSceneJpeg({ width: 600, height: 450, seed: 13, slices: 1, background: 'light' });
    const copy = Buffer.from(jpeg);
    const r = await engine.analyse(jpeg);
    expect(r.error_code).toBeNull();
    expect(jpeg.equals(copy)).toBe(true);
    const missing = await engine.analyse('/nonexistent/photo.jpg');
    expect(missing.error_code).toBe('file_not_found');
  });
});
