import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { cutOutLuma, lumaAtShare, lumaHistogram, shareBelow } from '../src/models/cut-out-lesions.js';
import { rgbToPng } from './helpers/drawn-slice.js';

/**
 * Slices cut out onto a flat digital fill (the CBSD crops) are read by the convention of their labels: one luma
 * cut a slice, the dark peel ring counted (models/cut-out-lesions.ts); the same slice photographed on a real
 * white card is read by the rules, which strip the peel as rind.
 */
let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 2 });
});
afterAll(async () => {
  await engine?.close();
});

const SIZE = 200;
const FLESH = [236, 228, 200];
const PEEL = [112, 76, 48];
const STREAK = [70, 66, 60];
const R = 80;
const PEEL_WIDTH = 4;

/** One cream slice with a brown peel ring and a dark streak, on a flat white or grey fill or a noisy white card. */
function slicePhoto(surround: 'white fill' | 'grey fill' | 'card' | 'clipped paper'): {
  rgb: Uint8Array;
  ringShare: number;
  streakShare: number;
} {
  const rgb = new Uint8Array(SIZE * SIZE * 3);
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648 - 0.5) * 24;
  };
  let area = 0;
  let ring = 0;
  let streak = 0;
  const c = SIZE / 2;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const r = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      const o = (y * SIZE + x) * 3;
      let colour: number[];
      if (r > R) {
        // a painted fill is one colour; a photographed card is a little grey and never noise-free
        // paper clipped to white by the exposure, with a shoulder of paper not quite white round the slice
        const clipped = r > R + 10 ? [255, 255, 255] : [244 + noise() / 4, 244 + noise() / 4, 242 + noise() / 4];
        colour =
          surround === 'card'
            ? [242 + noise(), 242 + noise(), 240 + noise()]
            : surround === 'grey fill'
              ? [96, 96, 96]
              : surround === 'clipped paper'
                ? clipped
                : [255, 255, 255];
      } else {
        area++;
        if (r > R - PEEL_WIDTH) {
          ring++;
          colour = PEEL;
        } else if (Math.abs(y + 0.5 - c) < 5 && Math.abs(x + 0.5 - c) < 45) {
          streak++;
          colour = STREAK;
        } else colour = FLESH;
      }
      for (let k = 0; k < 3; k++) rgb[o + k] = Math.max(0, Math.min(255, Math.round(colour[k]!)));
    }
  }
  return { rgb, ringShare: ring / area, streakShare: streak / area };
}

describe('slices cut out onto a flat digital fill', () => {
  it('count the dark peel ring as their labels do; the same slice on a photographed card does not', async () => {
    const flat = slicePhoto('white fill');
    const card = slicePhoto('card');
    const cutOut = await engine.analyse(await rgbToPng(flat.rgb, SIZE, SIZE));
    const photographed = await engine.analyse(await rgbToPng(card.rgb, SIZE, SIZE));
    expect(cutOut.error_code).toBeNull();
    expect(photographed.error_code).toBeNull();
    expect(cutOut.specimens).toHaveLength(1);
    expect(photographed.specimens).toHaveLength(1);
    const ring = 10 * flat.ringShare;
    const streak = 10 * flat.streakShare;
    // the rules strip the peel and keep the streak
    expect(Math.abs(photographed.ppd_value! - streak)).toBeLessThan(0.35);
    // the cut-out reading counts the ring too
    expect(cutOut.ppd_value!).toBeGreaterThan(streak + 0.6 * ring);
    expect(cutOut.ppd_value!).toBeLessThan(streak + ring + 0.35);
  });

  it('only on a fill painted white, as round the crops it was learned on, not on white paper clipped by the exposure', async () => {
    for (const surround of ['grey fill', 'clipped paper'] as const) {
      const photo = slicePhoto(surround);
      const r = await engine.analyse(await rgbToPng(photo.rgb, SIZE, SIZE));
      expect(r.error_code, surround).toBeNull();
      expect(Math.abs(r.ppd_value! - 10 * photo.streakShare), surround).toBeLessThan(0.35);
    }
  });
});

describe('the luma cut of a cut-out slice', () => {
  const rgb = new Uint8Array(300 * 3);
  // 100 dark (luma 50), 100 middling (120), 100 light (220)
  for (let i = 0; i < 300; i++) rgb.fill(i < 100 ? 50 : i < 200 ? 120 : 220, 3 * i, 3 * i + 3);
  const h = lumaHistogram(rgb, new Uint8Array(300).fill(1));

  it('reads shares and lumas of the slice', () => {
    expect(shareBelow(h, 100)).toBeCloseTo(1 / 3, 5);
    expect(shareBelow(h, 200)).toBeCloseTo(2 / 3, 5);
    expect(lumaAtShare(h, 0.5)).toBeCloseTo(120, 0);
    expect(lumaAtShare(h, 0)).toBe(0);
  });

  it('is the rules reading at model weight 0 and the model reading at weight 1', () => {
    // a model that cuts at 200 grey levels whatever the slice: two thirds of it darker
    const fixed = { coefficients: [200, 0, 0, 0, 0], modelWeight: 1 };
    expect(shareBelow(h, cutOutLuma(h, 1 / 3 - 0.01, fixed))).toBeCloseTo(2 / 3, 5);
    expect(shareBelow(h, cutOutLuma(h, 1 / 3 - 0.01, { ...fixed, modelWeight: 0 }))).toBeCloseTo(1 / 3, 5);
    expect(cutOutLuma(h, 0, { ...fixed, modelWeight: 0 })).toBe(0);
  });
});
