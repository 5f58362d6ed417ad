import type { RgbImage } from '../imaging/raster.js';
import { CUT_OUT_LESION as T } from './tuning.js';

/**
 * Root slices cut out onto a fill painted white (the CBSD crops: their surround painted pure white by the source)
 * are read by the convention their labels follow. Each of those labels is one grey-level cut a crop: the pixels
 * of the slice darker in luma (0.299 R + 0.587 G + 0.114 B of the sRGB values, as rgb2gray) than a cut the
 * labeller chose for that crop, dark peel ring and the halo of the streaks included (such a cut agrees with
 * 99.7 % of each training crop's labelled pixels on average, 99.1 % at worst; `scripts/train-default-model.mjs`
 * measures it). The cut is no fixed grey and no Otsu cut; it follows the slice's own luma: a linear model of
 * the luma at the rules' reading (the luma below which the share of the slice the rules read discoloured
 * lies) and of the slice's luma quartiles, fitted by least squares to the training crops' cuts. The share it
 * gives may be drawn toward the rules' share (`CUT_OUT_LESION.modelWeight`), and the slice's pixels darker than
 * the luma at that share are the lesion: P(discoloured) is a logistic around it.
 */

/** rgb2gray's luma of an sRGB pixel */
export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/**
 * A fill painted round a cut-out meets the slice at once: the pixels beside the fill are tissue. White paper
 * clipped to white by the exposure (as flat as a fill after the blur) fades into paper that is not quite white
 * first. The share of the non-fill pixels beside the fill that are near white (luma >= 235): 0-0.01 round the
 * 83 CBSD training crops, 0.74 round the paper figure crop and 1.0 round generated slices on clipped paper.
 */
export function fillShoulder(img: RgbImage): number {
  const { width: w, height: h, data } = img;
  const fill = new Uint8Array(w * h);
  for (let i = 0, j = 0; i < fill.length; i++, j += 3) {
    fill[i] = Math.min(data[j]!, data[j + 1]!, data[j + 2]!) >= T.fillMinChannel ? 1 : 0;
  }
  let beside = 0;
  let pale = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (fill[i]) continue;
      const touches =
        (x > 0 && fill[i - 1]) || (x < w - 1 && fill[i + 1]) || (y > 0 && fill[i - w]) || (y < h - 1 && fill[i + w]);
      if (!touches) continue;
      beside++;
      if (luma(data[3 * i]!, data[3 * i + 1]!, data[3 * i + 2]!) >= T.shoulderMinLuma) pale++;
    }
  }
  return beside > 0 ? pale / beside : 1;
}

/** luma histogram bins a grey level (quarter levels) */
const BINS_PER_LEVEL = 4;
const BINS = 256 * BINS_PER_LEVEL;

/** A slice's luma histogram (quarter grey levels) and pixel count. */
export interface LumaHistogram {
  hist: Float64Array;
  count: number;
}

export function lumaHistogram(rgb: Uint8Array, mask: Uint8Array, channels = 3): LumaHistogram {
  const hist = new Float64Array(BINS);
  let count = 0;
  for (let i = 0, j = 0; i < mask.length; i++, j += channels) {
    if (!mask[i]) continue;
    hist[Math.min(BINS - 1, Math.floor(luma(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!) * BINS_PER_LEVEL))]!++;
    count++;
  }
  return { hist, count };
}

/** The luma below which share q of the slice lies (nearest rank; 0 for q = 0). */
export function lumaAtShare(h: LumaHistogram, q: number): number {
  if (q <= 0 || h.count === 0) return 0;
  const rank = Math.min(h.count - 1, Math.floor(q * h.count));
  let seen = 0;
  for (let b = 0; b < BINS; b++) {
    seen += h.hist[b]!;
    if (seen > rank) return (b + 0.5) / BINS_PER_LEVEL;
  }
  return 255;
}

/** The luma cut below which (at least) share q of the slice lies, on a bin edge: 0 for q = 0. */
export function cutForShare(h: LumaHistogram, q: number): number {
  const target = Math.round(q * h.count);
  if (target <= 0) return 0;
  let seen = 0;
  for (let b = 0; b < BINS; b++) {
    seen += h.hist[b]!;
    if (seen >= target) return (b + 1) / BINS_PER_LEVEL;
  }
  return 256;
}

/** The share of the slice darker than luma `cut`. */
export function shareBelow(h: LumaHistogram, cut: number): number {
  if (h.count === 0) return 0;
  const end = Math.max(0, Math.min(BINS, Math.round(cut * BINS_PER_LEVEL)));
  let below = 0;
  for (let b = 0; b < end; b++) below += h.hist[b]!;
  return below / h.count;
}

/**
 * The features the cut follows, in the order of `CUT_OUT_LESION.coefficients` after the intercept: the luma at
 * the rules' share, the slice's quartiles of luma (25th, 50th, 75th percentiles).
 */
export function cutOutFeatures(h: LumaHistogram, rulesShare: number): number[] {
  return [lumaAtShare(h, rulesShare), lumaAtShare(h, 0.25), lumaAtShare(h, 0.5), lumaAtShare(h, 0.75)];
}

/** The model's luma cut of a slice (`CUT_OUT_LESION`: intercept, then one coefficient a feature). */
export function cutOutCut(features: readonly number[], coefficients: readonly number[] = T.coefficients): number {
  let cut = coefficients[0]!;
  for (let k = 0; k < features.length; k++) cut += coefficients[k + 1]! * features[k]!;
  return cut;
}

/** What the cut-out reading is fitted to (`CUT_OUT_LESION` by default; the training script tries others). */
export interface CutOutFit {
  coefficients: readonly number[];
  modelWeight: number;
}

/** The luma cut of a slice: the model's share drawn toward the rules' share, as a luma. */
export function cutOutLuma(h: LumaHistogram, rulesShare: number, fit: CutOutFit = T): number {
  const model = shareBelow(h, cutOutCut(cutOutFeatures(h, rulesShare), fit.coefficients));
  const share = fit.modelWeight * model + (1 - fit.modelWeight) * rulesShare;
  return cutForShare(h, share);
}

/**
 * P(discoloured) of each pixel of `mask` of a cut-out slice: a logistic around the slice's luma cut
 * (`rulesShare`: the share of the slice the rules read discoloured).
 */
export function cutOutLesionProbability(
  cut: RgbImage,
  mask: Uint8Array,
  rulesShare: number,
  fit: CutOutFit = T,
): Float32Array {
  const p = new Float32Array(mask.length);
  const h = lumaHistogram(cut.data, mask);
  if (h.count === 0) return p;
  const at = cutOutLuma(h, rulesShare, fit);
  const data = cut.data;
  for (let i = 0, j = 0; i < mask.length; i++, j += 3) {
    if (!mask[i]) continue;
    p[i] = 1 / (1 + Math.exp((luma(data[j]!, data[j + 1]!, data[j + 2]!) - at) / T.slope));
  }
  return p;
}
