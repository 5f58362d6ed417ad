import { boxBlur, type LabPlanes } from '../imaging/lab.js';
import { otsu } from '../imaging/otsu.js';

/**
 * Per-pixel features that carry across photos (ilastik-like): colour absolute and relative to the photo's own
 * tissue and background, smoothed at two scales, edges and texture (the first 18, "photo features": every
 * pixel of the photo has them); then, for a specimen's own pixels only ("specimen features"), lightness and
 * discolouration against the specimen's own cut between its lighter and darker tissue, and the default
 * engine's reading of the pixel. Radii are in pixels of the engine's working
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
  'L_specimen_cut',
  'discolour_specimen_cut',
  'default_lesion',
] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;
/** The photo features: the first 18 (what the first segmentation's forest reads). */
export const PHOTO_FEATURE_COUNT: number = 18;
/**
 * Bumped whenever a feature's meaning changes: a model file names the version it was trained on. Version 1 had
 * the photo features only, unchanged since: its files are still read (their one forest tests only those).
 */
export const FEATURE_VERSION = 2;
/** The feature names of each version a model file may name. */
export const FEATURE_SETS: Readonly<Record<number, readonly string[]>> = {
  1: FEATURE_NAMES.slice(0, PHOTO_FEATURE_COUNT),
  2: FEATURE_NAMES,
};
/** Feature planes written per specimen by `specimenFeatures` (0 elsewhere). */
const L_CUT = 18;
const DISCOLOUR_CUT = 19;
const DEFAULT_LESION = 20;

/**
 * Where a set of tissue pixels cuts between its lighter and darker parts, found without labels: Otsu's cut of
 * their L*, and of their discolouration (darkening plus 0.6 x the hue shift from their healthy flesh, the
 * lightest L* mode holding >= 1.5 % of them, as the colour engine reads a slice). A lab's labels put "discoloured"
 * at some such cut of each photo (the 140 CBSD crops: one grey level per crop separates their labels at 99 %,
 * and it moves with the crop's own Otsu cut, not with any fixed grey), so these carry across photos where
 * absolute colour does not.
 */
export interface TissueCuts {
  /** Otsu's cut of L* */
  cutL: number;
  /** CIELAB of the healthy flesh the discolouration is measured from */
  healthy: [number, number, number];
  /** Otsu's cut of the discolouration */
  cutDiscolour: number;
}

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

function median(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  const s = Float64Array.from(values).sort();
  return s[s.length >> 1]!;
}

/** The healthy flesh's share of the tissue must reach this for its L* mode to count (as the colour engine). */
const HEALTHY_MIN_MASS = 0.015;
/** Half-width (L* units) of the mode window, and of the band round the mode whose median colour is taken. */
const MODE_WINDOW = 3;
const HEALTHY_BAND = 8;
/** Hue shift counts a little less than darkening in the discolouration (as the colour engine). */
const CHROMA_WEIGHT = 0.6;

/** The cuts of the tissue pixels whose CIELAB values are given (see TissueCuts). */
export function tissueCuts(L: Float32Array, a: Float32Array, b: Float32Array): TissueCuts {
  const n = L.length;
  if (n === 0) return { cutL: 50, healthy: [80, 0, 15], cutDiscolour: 18 };
  const hist = new Float64Array(101);
  for (let i = 0; i < n; i++) hist[Math.max(0, Math.min(100, Math.round(L[i]!)))]!++;
  const win = (c: number) => {
    let m = 0;
    for (let k = Math.max(0, c - MODE_WINDOW); k <= Math.min(100, c + MODE_WINDOW); k++) m += hist[k]!;
    return m;
  };
  let mode = -1;
  for (let c = 100; c >= 0; c--) {
    if (win(c) < HEALTHY_MIN_MASS * n) continue;
    // walk up to the local maximum of this lightest heavy region
    mode = c;
    while (mode > 0 && win(mode - 1) > win(mode)) mode--;
    break;
  }
  if (mode < 0) mode = median(L);
  const hl: number[] = [];
  const ha: number[] = [];
  const hb: number[] = [];
  for (let i = 0; i < n; i++) {
    if (Math.abs(L[i]! - mode) > HEALTHY_BAND) continue;
    hl.push(L[i]!);
    ha.push(a[i]!);
    hb.push(b[i]!);
  }
  const healthy: [number, number, number] = [median(hl), median(ha), median(hb)];
  const d = discolouration(L, a, b, healthy);
  return { cutL: otsu(L, 0, 100).cut, healthy, cutDiscolour: otsu(d, 0, 90).cut };
}

function discolouration(L: Float32Array, a: Float32Array, b: Float32Array, h: [number, number, number]): Float32Array {
  const out = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) {
    const dl = Math.max(0, h[0] - L[i]!);
    out[i] = Math.sqrt(dl * dl + CHROMA_WEIGHT * ((a[i]! - h[1]) ** 2 + (b[i]! - h[2]) ** 2));
  }
  return out;
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
 * The photo features of every pixel, feature-major: feature f of pixel i is at `f * n + i` (each plane streams
 * through memory in order when a forest reads it). `planes` planes are allocated (the specimen features' stay 0
 * until `specimenFeatures` writes them).
 */
export function pixelFeatures(
  lab: LabPlanes,
  ref: PhotoReference,
  scale = 1,
  planes: number = FEATURE_COUNT,
): Float32Array {
  const { width, height, L, a, b } = lab;
  const n = width * height;
  const out = new Float32Array(Math.max(planes, PHOTO_FEATURE_COUNT) * n);
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

/**
 * The specimen features of the pixels of `mask` (a cut of the working image, `lab` its CIELAB planes) written
 * into `features` (from `pixelFeatures` on the same cut): L* and discolouration less the specimen's own Otsu
 * cuts of them; `defaultLesion`, the default engine's P(discoloured) of the cut (its peel rule included; -1
 * where it takes a pixel out of the specimen, e.g. bark seen from the side). Scoring computes them on the
 * specimens it finds, training on the specimens the default engine finds in the labelled photo.
 */
export function specimenFeatures(
  features: Float32Array,
  lab: LabPlanes,
  mask: Uint8Array,
  defaultLesion: Float32Array,
): void {
  const { width, height, L, a, b } = lab;
  const n = width * height;
  let count = 0;
  for (let i = 0; i < n; i++) if (mask[i]) count++;
  if (count === 0) return;
  const at = new Int32Array(count);
  for (let i = 0, k = 0; i < n; i++) if (mask[i]) at[k++] = i;
  // the cuts from a regular subsample of the specimen (as the photo's medians)
  const step = Math.max(1, Math.floor(count / MEDIAN_SAMPLE));
  const some = step > 1 ? at.filter((_, k) => k % step === 0) : at;
  const pick = (plane: Float32Array) => Float32Array.from(some, (i) => plane[i]!);
  const cuts = tissueCuts(pick(L), pick(a), pick(b));
  const [hL, ha, hb] = cuts.healthy;
  for (const i of at) {
    const dl = Math.max(0, hL - L[i]!);
    features[L_CUT * n + i] = L[i]! - cuts.cutL;
    features[DISCOLOUR_CUT * n + i] =
      Math.sqrt(dl * dl + CHROMA_WEIGHT * ((a[i]! - ha) ** 2 + (b[i]! - hb) ** 2)) - cuts.cutDiscolour;
    features[DEFAULT_LESION * n + i] = defaultLesion[i]!;
  }
}
