import type { LabPlanes } from '../imaging/lab.js';
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

/**
 * The element of rank `length >> 1` (the upper median), as a full sort would put it there, found by
 * quickselect in linear time: the same value, without sorting tens of thousands of numbers a photo.
 */
function median(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  return select(Float64Array.from(values), values.length >> 1);
}

/** The k-th smallest element of `s` (reordered in place; Hoare's quickselect, median-of-three pivots). */
function select(s: Float64Array, k: number): number {
  let lo = 0;
  let hi = s.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // median of three as the pivot
    let p0 = s[lo]!;
    let p1 = s[mid]!;
    const p2 = s[hi]!;
    if (p0 > p1) [p0, p1] = [p1, p0];
    const pivot = p2 < p0 ? p0 : p2 > p1 ? p1 : p2;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (s[i]! < pivot) i++;
      while (s[j]! > pivot) j--;
      if (i <= j) {
        const t = s[i]!;
        s[i] = s[j]!;
        s[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return s[k]!;
  }
  return s[k]!;
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
  let near = 0;
  for (let i = 0; i < n; i++) if (Math.abs(L[i]! - mode) <= HEALTHY_BAND) near++;
  const hl = new Float64Array(near);
  const ha = new Float64Array(near);
  const hb = new Float64Array(near);
  for (let i = 0, k = 0; i < n; i++) {
    if (Math.abs(L[i]! - mode) > HEALTHY_BAND) continue;
    hl[k] = L[i]!;
    ha[k] = a[i]!;
    hb[k++] = b[i]!;
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

/**
 * Scratch rasters kept between calls (each worker thread has its own) rather than garbage a call: a photo's
 * features blur a dozen planes, and fresh arrays for each had cost more in allocation and collection than the
 * blurs themselves.
 */
const scratch: Float32Array[] = [];
function scratchPlane(k: number, n: number): Float32Array {
  if (!scratch[k] || scratch[k].length < n) scratch[k] = new Float32Array(n);
  return scratch[k].subarray(0, n);
}
let blurSums = new Float64Array(0);
let blurSpans = new Float64Array(0);

/**
 * Separable box blur of `src` (radius r >= 1, windows clipped at the edges) written into `out`, using `rows`
 * for the row pass. The arithmetic is `boxBlur`'s (`imaging/lab.ts`), step for step, so the values are the same
 * bit for bit; only the memory is the caller's.
 */
function boxBlurInto(
  src: Float32Array,
  width: number,
  height: number,
  r: number,
  rows: Float32Array,
  out: Float32Array,
): void {
  if (blurSpans.length < width) blurSpans = new Float64Array(width);
  if (blurSums.length < width) blurSums = new Float64Array(width);
  const spans = blurSpans;
  for (let x = 0; x < width; x++) spans[x] = Math.min(width, x + r + 1) - Math.max(0, x - r);
  const lo = Math.min(width, r + 1);
  const hi = Math.max(lo, width - r);
  const full = 2 * r + 1;
  // the row pass is one running sum a row, each step waiting for the last: four rows at a time run four
  // independent sums side by side (each row's arithmetic is unchanged)
  let y = 0;
  if (width > 2 * r + 2) {
    for (; y + 4 <= height; y += 4) rowPass4(src, rows, y * width, width, r, lo, hi, full, spans);
  }
  for (; y < height; y++) {
    const o = y * width;
    let sum = 0;
    for (let x = 0; x < Math.min(r, width); x++) sum += src[o + x]!;
    for (let x = 0; x < lo; x++) {
      if (x + r < width) sum += src[o + x + r]!;
      if (x - r - 1 >= 0) sum -= src[o + x - r - 1]!;
      rows[o + x] = sum / spans[x]!;
    }
    for (let x = lo; x < hi; x++) {
      sum += src[o + x + r]!;
      sum -= src[o + x - r - 1]!;
      rows[o + x] = sum / full;
    }
    for (let x = hi; x < width; x++) {
      if (x + r < width) sum += src[o + x + r]!;
      if (x - r - 1 >= 0) sum -= src[o + x - r - 1]!;
      rows[o + x] = sum / spans[x]!;
    }
  }
  const sums = blurSums;
  sums.fill(0, 0, width);
  for (let y = 0; y < Math.min(r, height); y++) for (let x = 0; x < width; x++) sums[x]! += rows[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const span = Math.min(height, y + r + 1) - Math.max(0, y - r);
    const o = y * width;
    if (y + r < height && y - r - 1 >= 0) {
      const enter = (y + r) * width;
      const leave = (y - r - 1) * width;
      for (let x = 0; x < width; x++) {
        let v = sums[x]! + rows[enter + x]!;
        v -= rows[leave + x]!;
        sums[x] = v;
        out[o + x] = v / span;
      }
      continue;
    }
    if (y + r < height) for (let x = 0, e = (y + r) * width; x < width; x++) sums[x]! += rows[e + x]!;
    if (y - r - 1 >= 0) for (let x = 0, l = (y - r - 1) * width; x < width; x++) sums[x]! -= rows[l + x]!;
    for (let x = 0; x < width; x++) out[o + x] = sums[x]! / span;
  }
}

/**
 * The row pass of `boxBlurInto` on the four rows from offset `o`, for rows wider than a window (so every edge
 * test of the single-row loop is known: the first `lo` columns never take a pixel leaving, the last ones never
 * add one entering).
 */
function rowPass4(
  src: Float32Array,
  rows: Float32Array,
  o: number,
  width: number,
  r: number,
  lo: number,
  hi: number,
  full: number,
  spans: Float64Array,
): void {
  const o1 = o + width;
  const o2 = o1 + width;
  const o3 = o2 + width;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let x = 0; x < r; x++) {
    s0 += src[o + x]!;
    s1 += src[o1 + x]!;
    s2 += src[o2 + x]!;
    s3 += src[o3 + x]!;
  }
  for (let x = 0; x < lo; x++) {
    const e = x + r;
    s0 += src[o + e]!;
    s1 += src[o1 + e]!;
    s2 += src[o2 + e]!;
    s3 += src[o3 + e]!;
    const span = spans[x]!;
    rows[o + x] = s0 / span;
    rows[o1 + x] = s1 / span;
    rows[o2 + x] = s2 / span;
    rows[o3 + x] = s3 / span;
  }
  for (let x = lo; x < hi; x++) {
    const e = x + r;
    const l = x - r - 1;
    s0 += src[o + e]!;
    s0 -= src[o + l]!;
    s1 += src[o1 + e]!;
    s1 -= src[o1 + l]!;
    s2 += src[o2 + e]!;
    s2 -= src[o2 + l]!;
    s3 += src[o3 + e]!;
    s3 -= src[o3 + l]!;
    rows[o + x] = s0 / full;
    rows[o1 + x] = s1 / full;
    rows[o2 + x] = s2 / full;
    rows[o3 + x] = s3 / full;
  }
  for (let x = hi; x < width; x++) {
    const l = x - r - 1;
    s0 -= src[o + l]!;
    s1 -= src[o1 + l]!;
    s2 -= src[o2 + l]!;
    s3 -= src[o3 + l]!;
    const span = spans[x]!;
    rows[o + x] = s0 / span;
    rows[o1 + x] = s1 / span;
    rows[o2 + x] = s2 / span;
    rows[o3 + x] = s3 / span;
  }
}

/** A Gaussian-like blur of `src` into `out`: a box blur twice (radius 0 = a copy). */
function smoothInto(src: Float32Array, width: number, height: number, r: number, out: Float32Array): void {
  if (r <= 0) {
    out.set(src);
    return;
  }
  const n = width * height;
  const once = scratchPlane(0, n);
  const rows = scratchPlane(1, n);
  boxBlurInto(src, width, height, r, rows, once);
  boxBlurInto(once, width, height, r, rows, out);
}

/** Planes of the photo features that others are computed from. */
const D_L = 3;
const D_A = 4;
const D_B = 5;
const DE_BACKGROUND = 6;

/**
 * The photo features of every pixel, feature-major: feature f of pixel i is at `f * n + i` (each plane streams
 * through memory in order when a forest reads it). `planes` planes are allocated (the specimen features' stay 0
 * until `specimenFeatures` writes them); `into`, when large enough, is used instead of a new buffer (a worker
 * scoring photo after photo keeps one). With `need`, only the planes it marks are computed (the others are 0:
 * a forest that never tests a feature does not pay for it); each computed plane is the same as without it.
 */
export function pixelFeatures(
  lab: LabPlanes,
  ref: PhotoReference,
  scale = 1,
  planes: number = FEATURE_COUNT,
  need?: ArrayLike<boolean>,
  into?: Float32Array,
): Float32Array {
  const { width, height, L, a, b } = lab;
  const n = width * height;
  const size = Math.max(planes, PHOTO_FEATURE_COUNT) * n;
  const reused = into !== undefined && into.length >= size;
  const out = reused ? into.subarray(0, size) : new Float32Array(size);
  const wants = (f: number) => !need || need[f] === true;
  const plane = (f: number) => out.subarray(f * n, (f + 1) * n);
  const r = (px: number) => Math.max(px > 0 ? 1 : 0, Math.round(px * scale));
  const [tL, ta, tb] = ref.tissue;
  const [bL, ba, bb] = ref.background;
  if (wants(0)) out.set(L, 0);
  if (wants(1)) out.set(a, n);
  if (wants(2)) out.set(b, 2 * n);
  // the relative colour is cheap and the smoothed planes start from it: always computed
  const dL = plane(D_L);
  const dA = plane(D_A);
  const dB = plane(D_B);
  relativeColour(L, a, b, tL, ta, tb, dL, dA, dB);
  if (wants(DE_BACKGROUND) || wants(17)) backgroundDistance(L, a, b, bL, ba, bb, plane(DE_BACKGROUND));
  if (wants(7) || wants(8)) chromaHue(a, b, plane(7), plane(8));
  const r2 = r(2);
  const r6 = r(6);
  // the gradient is taken on the lightly smoothed lightness: plane 9, or a scratch copy when 9 is not wanted
  const sL = wants(9) ? plane(9) : wants(15) ? scratchPlane(2, n) : null;
  if (sL) smoothInto(dL, width, height, r2, sL);
  if (wants(10)) smoothInto(dA, width, height, r2, plane(10));
  if (wants(11)) smoothInto(dB, width, height, r2, plane(11));
  if (wants(12)) smoothInto(dL, width, height, r6, plane(12));
  if (wants(13)) smoothInto(dA, width, height, r6, plane(13));
  if (wants(14)) smoothInto(dB, width, height, r6, plane(14));
  if (wants(15)) gradient(sL!, width, height, plane(15));
  if (wants(16)) texture(L, width, height, r(3), plane(16));
  if (wants(17)) smoothInto(plane(DE_BACKGROUND), width, height, r2, plane(17));
  // what is not computed is 0 (a reused buffer is cleared there), as in a fresh buffer
  for (let f = 0; f < PHOTO_FEATURE_COUNT; f++) {
    if (wants(f)) continue;
    const computed =
      f === D_L ||
      f === D_A ||
      f === D_B ||
      (f === DE_BACKGROUND && wants(17)) ||
      ((f === 7 || f === 8) && (wants(7) || wants(8)));
    if (reused || computed) plane(f).fill(0);
  }
  if (reused) out.fill(0, PHOTO_FEATURE_COUNT * n);
  return out;
}

function relativeColour(
  L: Float32Array,
  a: Float32Array,
  b: Float32Array,
  tL: number,
  ta: number,
  tb: number,
  dL: Float32Array,
  dA: Float32Array,
  dB: Float32Array,
): void {
  for (let i = 0; i < L.length; i++) {
    dL[i] = L[i]! - tL;
    dA[i] = a[i]! - ta;
    dB[i] = b[i]! - tb;
  }
}

function backgroundDistance(
  L: Float32Array,
  a: Float32Array,
  b: Float32Array,
  bL: number,
  ba: number,
  bb: number,
  dE: Float32Array,
): void {
  for (let i = 0; i < L.length; i++) {
    const el = L[i]! - bL;
    const ea = a[i]! - ba;
    const eb = b[i]! - bb;
    dE[i] = Math.sqrt(el * el + ea * ea + eb * eb);
  }
}

function chromaHue(a: Float32Array, b: Float32Array, chroma: Float32Array, hue: Float32Array): void {
  for (let i = 0; i < a.length; i++) {
    const aa = a[i]!;
    const bbb = b[i]!;
    chroma[i] = Math.sqrt(aa * aa + bbb * bbb);
    hue[i] = Math.atan2(bbb, aa);
  }
}

/** Gradient magnitude of `sL` (central differences, clamped at the edges). */
function gradient(sL: Float32Array, width: number, height: number, grad: Float32Array): void {
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
}

/** Texture: the local standard deviation of lightness (radius `r`). */
function texture(L: Float32Array, width: number, height: number, r: number, std: Float32Array): void {
  const n = width * height;
  const mean = scratchPlane(3, n);
  const meanSq = scratchPlane(4, n);
  const rows = scratchPlane(1, n);
  if (r > 0) boxBlurInto(L, width, height, r, rows, mean);
  else mean.set(L);
  const sq = scratchPlane(0, n);
  for (let i = 0; i < n; i++) sq[i] = L[i]! * L[i]!;
  if (r > 0) boxBlurInto(sq, width, height, r, rows, meanSq);
  else meanSq.set(sq);
  for (let i = 0; i < n; i++) std[i] = Math.sqrt(Math.max(0, meanSq[i]! - mean[i]! * mean[i]!));
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
  // the cuts from a regular subsample of the specimen (as the photo's medians): every step-th listed pixel
  const step = Math.max(1, Math.floor(count / MEDIAN_SAMPLE));
  const some = Math.ceil(count / step);
  const pick = (plane: Float32Array) => {
    const values = new Float32Array(some);
    for (let k = 0, j = 0; k < some; k++, j += step) values[k] = plane[at[j]!]!;
    return values;
  };
  const cuts = tissueCuts(pick(L), pick(a), pick(b));
  writeSpecimenFeatures(features, n, at, L, a, b, cuts, defaultLesion);
}

function writeSpecimenFeatures(
  features: Float32Array,
  n: number,
  at: Int32Array,
  L: Float32Array,
  a: Float32Array,
  b: Float32Array,
  cuts: TissueCuts,
  defaultLesion: Float32Array,
): void {
  const [hL, ha, hb] = cuts.healthy;
  const { cutL, cutDiscolour } = cuts;
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    const dl = Math.max(0, hL - L[i]!);
    features[L_CUT * n + i] = L[i]! - cutL;
    features[DISCOLOUR_CUT * n + i] =
      Math.sqrt(dl * dl + CHROMA_WEIGHT * ((a[i]! - ha) ** 2 + (b[i]! - hb) ** 2)) - cutDiscolour;
    features[DEFAULT_LESION * n + i] = defaultLesion[i]!;
  }
}
