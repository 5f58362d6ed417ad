import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { renderScene } from '../src/synthetic/slice-scene.js';
import { drawSlicePng, rgbToPng, symmetrise } from './helpers/drawn-slice.js';

// Test photos are at most 1024 px, so working pixels are image pixels and sizes below are exact.
let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 2 });
});
afterAll(async () => {
  await engine?.close();
});

async function ppd(png: Buffer, params: Record<string, unknown> = {}): Promise<number> {
  const r = await engine.analyse(png, params);
  expect(r.error_code).toBeNull();
  return r.ppd_value!;
}

describe('prediction parameters move the score the way their names say', () => {
  it('a higher threshold finds less discoloured area', async () => {
    // soft-edged lesions: their rims have middling probabilities that a stricter threshold gives up
    const png = await drawSlicePng({
      size: 600,
      blobs: [
        { x: 250, y: 250, r: 60, soft: 50 },
        { x: 360, y: 350, r: 50, soft: 40 },
      ],
    });
    const values = [];
    for (const threshold of [0.2, 0.5, 0.8]) values.push(await ppd(png, { threshold }));
    expect(values[0]!).toBeGreaterThan(values[1]!);
    expect(values[1]!).toBeGreaterThan(values[2]!);
  });

  it('a larger min_size drops small lesions and keeps large ones', async () => {
    const specks = [];
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) specks.push({ x: 200 + i * 25, y: 330 + j * 25, side: 7 });
    const png = await drawSlicePng({ size: 600, specks, blobs: [{ x: 300, y: 220, r: 40, soft: 1 }] });
    const small = await ppd(png, { min_size: 10, morph_kernel_size: 3 });
    const large = await ppd(png, { min_size: 100, morph_kernel_size: 3 });
    // 25 specks of 49 px = 1225 px of the slice's ~181 000 px: about 0.07 PPD units
    expect(small - large).toBeGreaterThan(0.04);
    expect(small - large).toBeLessThan(0.1);
    // the blob of radius 40 px (~5 000 px, ~0.28 units) is kept by both
    expect(large).toBeGreaterThan(0.22);
  });

  it('method "post" removes specks that "none" counts', async () => {
    const specks = [];
    for (let i = 0; i < 12; i++)
      for (let j = 0; j < 12; j++) specks.push({ x: 190 + i * 18, y: 190 + j * 18, side: 2 });
    const png = await drawSlicePng({ size: 600, specks });
    const none = await ppd(png, { method: 'none' });
    const post = await ppd(png, { method: 'post' });
    expect(none).toBeGreaterThan(0.02); // 144 specks of 4 px = 576 px of ~181 000: 0.03 units
    expect(post).toBe(0);
  });

  it('specks closer together than the kernel are one lesion region: a speckled field counts, scattered specks do not', async () => {
    // 12 x 12 specks of 4 x 4 px: 7 px apart the 3 px gaps are within the 5 px kernel, 18 px apart they are not
    const field = (pitch: number) => {
      const specks = [];
      for (let i = 0; i < 12; i++)
        for (let j = 0; j < 12; j++) specks.push({ x: 220 + i * pitch, y: 220 + j * pitch, side: 4 });
      return drawSlicePng({ size: 600, specks });
    };
    const dense = await field(7);
    const none = await ppd(dense, { method: 'none' });
    const post = await ppd(dense, { method: 'post' });
    // 144 x 16 px = 2304 px of ~181 000: 0.13 units, the specks themselves and not the gaps between them
    expect(post).toBeGreaterThan(0.1);
    expect(post).toBeLessThanOrEqual(none);
    // min_size applies to the field as a whole
    expect(await ppd(dense, { method: 'post', min_size: 1000 })).toBe(post);
    expect(await ppd(await field(18), { method: 'post' })).toBe(0);
  });

  it('a larger morphology kernel or more iterations erase thin streaks', async () => {
    const png = await drawSlicePng({
      size: 600,
      streaks: [
        { x0: 200, y0: 300, x1: 400, y1: 300, width: 4 },
        { x0: 300, y0: 180, x1: 300, y1: 280, width: 4 },
      ],
      blobs: [{ x: 300, y: 400, r: 45, soft: 1 }],
    });
    const k3 = await ppd(png, { morph_kernel_size: 3, min_size: 10 });
    const k7 = await ppd(png, { morph_kernel_size: 7, min_size: 10 });
    const k3x3 = await ppd(png, { morph_kernel_size: 3, morph_iterations: 3, min_size: 10 });
    expect(k3).toBeGreaterThan(k7 + 0.05);
    expect(k3).toBeGreaterThan(k3x3 + 0.05);
    expect(k7).toBeGreaterThan(0.28); // the blob of radius 45 px (~0.35 units) stays
  });

  it('test-time augmentation changes nothing on an image equal to its mirror images', async () => {
    const scene = renderScene({ width: 640, height: 480, seed: 77, slices: 1, background: 'blue' });
    const png = await rgbToPng(symmetrise(scene.rgb, 640, 480), 640, 480);
    const plain = await engine.analyse(png, { use_tta: false });
    const tta = await engine.analyse(png, { use_tta: true });
    expect(plain.error_code).toBeNull();
    expect(plain.ppd_value).toBeGreaterThan(0);
    expect(tta.sub_ppd_values).toEqual(plain.sub_ppd_values);
    expect(tta.confidence).toEqual(plain.confidence);
  });

  it('overlay_opacity sets how strongly lesions are tinted in the pred images', async () => {
    const png = await drawSlicePng({ size: 400, blobs: [{ x: 200, y: 200, r: 60, soft: 1 }] });
    const redness = async (overlay_opacity: number) => {
      const r = await engine.analyse(png, { overlay_opacity });
      const { data, info } = await sharp(r.images.pred[0]!).raw().toBuffer({ resolveWithObject: true });
      // sample the lesion's centre, which is the middle of the crop
      const o = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
      return data[o]! - data[o + 2]!;
    };
    expect(await redness(0.8)).toBeGreaterThan((await redness(0.2)) + 40);
  });
});
