import { boxBlur, type LabPlanes } from '../imaging/lab.js';

/**
 * Per-pixel features that carry across photos (ilastik-like): colour absolute and relative to the photo's own
 * tissue and background, smoothed at two scales, edges and texture. Radii are in pixels of the engine's working
 * image (longest side 1024); on a smaller copy of it (`scale` < 1) they shrink with it, so a model trained at
 * one scale reads another the same way.
 */
export const FEATURE_NAMES = [
  'L',
  'a',
  'b',
  'dL_tissue',
  'da_tissue',
  'db_tissue',
  'dE_background',
  'chroma',
  'hue',
  'dL_tissue_s2',
  'da_tissue_s2',
  'db_tissue_s2',
  'dL_tissue_s6',
  'da_tissue_s6',
  'db_tissue_s6',
  'gradient_L_s2',
  'std_L_r3',
  'dE_background_s2',
] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;
/** Bumped whenever a feature's meaning changes: a model file names the version it was trained on. */
export const FEATURE_VERSION = 1;

/** The photo's own references, found without labels (so training and scoring compute them the same way). */
export interface PhotoReference {
  /** median CIELAB of the photo's border ring: what the board or cloth looks like */
  background: [number, number, number];
  /** median CIELAB of the lighter half of what differs from the background: the specimens' healthy tissue */
  tissue: [number, number, number];
}

/**
 * A pixel at least this far (CIELAB dE) from the background colour is likely specimen. Cream flesh on white paper
 * is only 10-19 from it: at 20 the healthy flesh was left out and the reference taken from the lesions (CBSD
 * crops, 3 trained on, 34 others: MAE 1.65 -> 0.65).
 */
const NOT_BACKGROUND_DE = 10;
/** The border ring, as a share of the shorter side. */
const BORDER_SHARE = 0.05;
/** Medians are taken on at most this many pixels (a regular subsample). */
const MEDIAN_SAMPLE = 40_000;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = values.slice().sort((x, y) => x - y);
  return s[s.length >> 1]!;
}

export function photoReference(lab: LabPlanes): PhotoReference {
  const { width, height, L, a, b } = lab;
  const n = width * height;
  const ring = Math.max(1, Math.round(Math.min(width, height) * BORDER_SHARE));
  const step = Math.max(1, Math.floor(n / MEDIAN_SAMPLE));
  const bl: number[] = [];
  const ba: number[] = [];
  const bb: number[] = [];
  for (let i = 0; i < n; i += step) {
    const x = i % width;
    const y = (i - x) / width;
    if (x >= ring && y >= ring && x < width - ring && y < height - ring) continue;
    bl.push(L[i]!);
    ba.push(a[i]!);
    bb.push(b[i]!);
  }
  const background: [number, number, number] = [median(bl), median(ba), median(bb)];
  const tl: number[] = [];
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < n; i += step) {
    const dl = L[i]! - background[0];
    const da = a[i]! - background[1];
    const db = b[i]! - background[2];
    if (dl * dl + da * da + db * db < NOT_BACKGROUND_DE * NOT_BACKGROUND_DE) continue;
    tl.push(L[i]!);
    ta.push(a[i]!);
    tb.push(b[i]!);
  }
  if (tl.length < 50) return { background, tissue: background };
  const mid = median(tl);
  const ll: number[] = [];
  const la: number[] = [];
  const lb: number[] = [];
  for (let k = 0; k < tl.length; k++) {
    if (tl[k]! < mid) continue;
    ll.push(tl[k]!);
    la.push(ta[k]!);
    lb.push(tb[k]!);
  }
  return { background, tissue: [median(ll), median(la), median(lb)] };
}

/** A Gaussian-like blur: a box blur twice (radius 0 = none). */
function smooth(src: Float32Array, width: number, height: number, r: number): Float32Array {
  return r > 0 ? boxBlur(boxBlur(src, width, height, r), width, height, r) : src;
}

/**
 * All features of every pixel, feature-major: feature f of pixel i is at `f * n + i` (each plane streams through
 * memory in order when a forest reads it).
 */
export function pixelFeatures(lab: LabPlanes, ref: PhotoReference, scale = 1): Float32Array {
  const { width, height, L, a, b } = lab;
  const n = width * height;
  const out = new Float32Array(FEATURE_COUNT * n);
  const plane = (f: number) => out.subarray(f * n, (f + 1) * n);
  const r = (px: number) => Math.max(px > 0 ? 1 : 0, Math.round(px * scale));
  const [tL, ta, tb] = ref.tissue;
  const [bL, ba, bb] = ref.background;
  const dL = plane(3);
  const dA = plane(4);
  const dB = plane(5);
  const dE = plane(6);
  const chroma = plane(7);
  const hue = plane(8);
  out.set(L, 0);
  out.set(a, n);
  out.set(b, 2 * n);
  for (let i = 0; i < n; i++) {
    const l = L[i]!;
    const aa = a[i]!;
    const bbb = b[i]!;
    dL[i] = l - tL;
    dA[i] = aa - ta;
    dB[i] = bbb - tb;
    const el = l - bL;
    const ea = aa - ba;
    const eb = bbb - bb;
    dE[i] = Math.sqrt(el * el + ea * ea + eb * eb);
    chroma[i] = Math.sqrt(aa * aa + bbb * bbb);
    hue[i] = Math.atan2(bbb, aa);
  }
  const r2 = r(2);
  const r6 = r(6);
  out.set(smooth(dL, width, height, r2), 9 * n);
  out.set(smooth(dA, width, height, r2), 10 * n);
  out.set(smooth(dB, width, height, r2), 11 * n);
  out.set(smooth(dL, width, height, r6), 12 * n);
  out.set(smooth(dA, width, height, r6), 13 * n);
  out.set(smooth(dB, width, height, r6), 14 * n);
  // gradient magnitude of the lightly smoothed lightness (central differences, clamped at the edges)
  const sL = plane(9);
  const grad = plane(15);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const down = Math.min(height - 1, y + 1) * width;
    const o = y * width;
    for (let x = 0; x < width; x++) {
      const gx = sL[o + Math.min(width - 1, x + 1)]! - sL[o + Math.max(0, x - 1)]!;
      const gy = sL[down + x]! - sL[up + x]!;
      grad[o + x] = Math.sqrt(gx * gx + gy * gy);
    }
  }
  // texture: local standard deviation of lightness
  const r3 = r(3);
  const mean = boxBlur(L, width, height, r3);
  const sq = new Float32Array(n);
  for (let i = 0; i < n; i++) sq[i] = L[i]! * L[i]!;
  const meanSq = boxBlur(sq, width, height, r3);
  const std = plane(16);
  for (let i = 0; i < n; i++) std[i] = Math.sqrt(Math.max(0, meanSq[i]! - mean[i]! * mean[i]!));
  out.set(smooth(dE, width, height, r2), 17 * n);
  return out;
}
