import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { compareWithTruth } from '../src/synthetic/evaluate.js';
import { seededRandom } from '../src/synthetic/random.js';
import { renderScene, sceneJpeg } from '../src/synthetic/slice-scene.js';

/**
 * What the engine scores and what it refuses: photos that are no specimen photo are refused with the reason
 * (field photos of leaves on the plant, a basket of whole roots, a printed page), and coloured cloth beside
 * slices is never taken for one. Generated scenes here are sanity checks; the real field photos are the judge.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const REAL = process.env.REAL_PHOTOS_DIR ?? path.resolve(here, '../../../../shared/real-photos');
const FIELD = path.join(REAL, 'field-leaves');

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 2 });
});
afterAll(async () => {
  await engine?.close();
});

/** A printed page: rows of words (grey to black letters) on white paper. */
async function printedPage(seed: number): Promise<Buffer> {
  const W = 1200;
  const H = 1600;
  const rand = seededRandom(seed);
  const rgb = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const v = 245 + (rand() - 0.5) * 6;
    rgb.fill(Math.round(v), 3 * i, 3 * i + 3);
  }
  const box = (x0: number, y0: number, w: number, h: number, c: number) => {
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) rgb.fill(c, 3 * (y * W + x), 3 * (y * W + x) + 3);
  };
  for (let y = 120; y < H - 120; y += 34) {
    for (let x = 100; x < W - 160;) {
      const w = 20 + rand() * 90;
      for (let cx = x; cx < x + w - 6; cx += 9) {
        const tall = rand() < 0.3;
        box(Math.round(cx), y + (tall ? 0 : 6), 6, tall ? 20 : 14, Math.round(30 + rand() * 30));
      }
      x += w + 14;
    }
  }
  return sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('photos that are no specimen photo', () => {
  it('refuses a printed page, saying it is a document', async () => {
    for (const seed of [1, 2]) {
      const r = await engine.analyse(await printedPage(seed));
      expect(r.error_code).toBe('not_a_specimen_photo');
      expect(r.error_message).toMatch(/document/);
      expect(r.ppd_value).toBeNull();
    }
  });

  it.skipIf(!fs.existsSync(FIELD))(
    'refuses every field photo of cassava leaves on the plant, with the reason',
    async () => {
      const names = fs.readdirSync(FIELD).filter((n) => /\.(jpe?g|png)$/i.test(n));
      expect(names.length).toBeGreaterThanOrEqual(14);
      for (const name of names) {
        const r = await engine.analyse(path.join(FIELD, name));
        expect(r.error_code, name).toBe('not_a_specimen_photo');
        expect(r.error_message, name).toMatch(/Not a specimen photo: .+\. Photograph/);
        expect(r.images.overview, name).not.toBeNull();
      }
    },
  );
});

describe('slices on coloured cloth (generated: a sanity check, no real photo of it was available)', () => {
  it('does not take navy cloth in a corner for a slice, nor merge it into the slice it touches', async () => {
    const scene = renderScene({ width: 800, height: 600, seed: 4242, background: 'light', slices: 2 });
    const plain = await engine.analyse(await sceneJpeg(scene));
    // navy cloth over the left of the photo, from the top down past the leftmost slice, up to its edge
    const first = scene.slices.reduce((p, q) => (p.box.x <= q.box.x ? p : q));
    expect(first.box.x).toBeGreaterThan(30);
    const cw = first.box.x;
    const ch = Math.min(scene.height, first.box.y + first.box.h);
    const rgb = scene.rgb.slice();
    const rand = seededRandom(7);
    for (let y = 0; y < ch; y++) {
      for (let x = 0; x < cw; x++) {
        const i = 3 * (y * scene.width + x);
        const n = (rand() - 0.5) * 10;
        rgb[i] = 25 + n;
        rgb[i + 1] = 35 + n;
        rgb[i + 2] = 95 + n;
      }
    }
    const clothed = await engine.analyse(await sceneJpeg({ ...scene, rgb }));
    expect(clothed.error_code).toBeNull();
    expect(clothed.specimens).toHaveLength(plain.specimens.length);
    const a = compareWithTruth(scene, plain);
    const b = compareWithTruth(scene, clothed);
    for (let k = 0; k < a.length; k++) {
      expect(b[k]!.predicted).not.toBeNull();
      expect(Math.abs(b[k]!.predicted! - a[k]!.predicted!)).toBeLessThanOrEqual(0.3);
    }
  });
});
