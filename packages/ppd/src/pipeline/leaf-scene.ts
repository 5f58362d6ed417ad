import { REFUSAL_REASONS } from '@cassavascope/contract';
import { boxBlur, type LabPlanes } from '../imaging/lab.js';
import { close, components, dilate, fillHoles, open, type Components } from '../imaging/mask-ops.js';
import type { Rect } from '../imaging/raster.js';
import { LEAF_SCENE as T } from '../models/tuning.js';
import type { Specimen } from './first-segmentation.js';
import { readingOrder } from './reading-order.js';

/**
 * Detached leaves on a plain background. The root-slice search models the background from the colours that
 * reach round the frame, and a leaf that runs past the frame (as leaflets laid on paper do) is then half
 * "background"; a leaf is instead found from its own tissue: green, and whatever hangs together with the green
 * and does not look like the plain background (yellow chlorosis, brown spots, a pale midrib). The background
 * is what the frame reaches without crossing leaf, and it must be plain (paper, a board, cloth: smooth), or the
 * photo is leaves on the plant (foliage, soil, grass all round) and is not scored.
 */

export interface LeafSceneFeatures {
  /** share of the frame that is green leaf tissue */
  greenShare: number;
  /** share of the frame that is plain background reached from the frame */
  backgroundShare: number;
  /** mean |gradient L*| over the background, away from leaf edges (per working pixel) */
  backgroundTexture: number;
  /** share of the background pixels lying in a smooth neighbourhood */
  backgroundSmooth: number;
  /** share of the frame's perimeter that is background */
  backgroundPerimeter: number;
  /** share of the found leaves' area that is not green (symptoms, or soil and stems joined in a field) */
  nonGreenShare: number;
}

export interface LeafScene {
  /** the leaves, in working pixels of the image the planes belong to; empty when none is found */
  leaves: Specimen[];
  /** why these are leaves on the plant rather than detached ones; null when they can be scored */
  refusal: string | null;
  /** whether the photo looks like leaves at all (enough green) */
  leafy: boolean;
  features: LeafSceneFeatures;
}

/** Leaf green, CIELAB: hue 100-175 degrees (yellow-green to blue-green), some chroma, neither black nor pale. */
export function isLeafGreen(L: number, a: number, b: number): boolean {
  if (a > -T.greenMinNegA || L < T.greenMinL || L > T.greenMaxL) return false;
  const c2 = a * a + b * b;
  if (c2 < T.greenMinChroma * T.greenMinChroma) return false;
  // hue 100-175 degrees with a < 0: b <= -a tan(80) and b >= -a tan(5)
  return b <= -a * 5.67 && b >= -a * 0.0875;
}

/**
 * A leaf yellowed through (chlorosis all over): saturated yellow, far more than any cassava flesh (cream to
 * yellow flesh stays under chroma 40). Seeds a leaf like green does.
 */
function isLeafYellow(L: number, a: number, b: number): boolean {
  if (L < T.greenMinL || L > T.yellowMaxL || b <= 0) return false;
  const c2 = a * a + b * b;
  // hue 85-110 degrees: a between -b tan(20) and b tan(5)
  return c2 >= T.yellowMinChroma * T.yellowMinChroma && a <= b * 0.0875 && a >= -b * 0.364;
}

/** k-means (k small) of background colour samples: centres and each centre's RMS spread, L* weighted half. */
function backgroundColours(samples: Float32Array, count: number, k: number) {
  const cL = new Float64Array(k);
  const cA = new Float64Array(k);
  const cB = new Float64Array(k);
  // seeds spread over the sample order (samples come in scan order: top, middle, bottom of the frame)
  for (let j = 0; j < k; j++) {
    const s = Math.floor(((j + 0.5) / k) * count);
    cL[j] = samples[3 * s]!;
    cA[j] = samples[3 * s + 1]!;
    cB[j] = samples[3 * s + 2]!;
  }
  const of = new Int32Array(count);
  for (let iter = 0; iter < 8; iter++) {
    const sL = new Float64Array(k);
    const sA = new Float64Array(k);
    const sB = new Float64Array(k);
    const n = new Float64Array(k);
    let changed = false;
    for (let s = 0; s < count; s++) {
      let best = 0;
      let bd = Infinity;
      for (let j = 0; j < k; j++) {
        const d =
          (samples[3 * s]! - cL[j]!) ** 2 + (samples[3 * s + 1]! - cA[j]!) ** 2 + (samples[3 * s + 2]! - cB[j]!) ** 2;
        if (d < bd) {
          bd = d;
          best = j;
        }
      }
      if (of[s] !== best) changed = true;
      of[s] = best;
      sL[best] = sL[best]! + samples[3 * s]!;
      sA[best] = sA[best]! + samples[3 * s + 1]!;
      sB[best] = sB[best]! + samples[3 * s + 2]!;
      n[best] = n[best]! + 1;
    }
    // the same assignment as the last round gives the same centres again, and so on: converged
    if (iter > 0 && !changed) break;
    for (let j = 0; j < k; j++) {
      if (!n[j]) continue;
      cL[j] = sL[j]! / n[j]!;
      cA[j] = sA[j]! / n[j]!;
      cB[j] = sB[j]! / n[j]!;
    }
  }
  const spread = new Float64Array(k);
  const n = new Float64Array(k);
  for (let s = 0; s < count; s++) {
    const j = of[s]!;
    spread[j] =
      spread[j]! +
      (samples[3 * s]! - cL[j]!) ** 2 +
      (samples[3 * s + 1]! - cA[j]!) ** 2 +
      (samples[3 * s + 2]! - cB[j]!) ** 2;
    n[j] = n[j]! + 1;
  }
  for (let j = 0; j < k; j++) spread[j] = n[j] ? Math.sqrt(spread[j]! / n[j]!) : 0;
  return { cL, cA, cB, spread, n };
}

/** Mean |gradient L*| of the pixels of `where` (interior pixels only). */
function meanGradient(L: Float32Array, where: Uint8Array, width: number, height: number) {
  let g = 0;
  let n = 0;
  let smooth = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (!where[i]) continue;
      const v = Math.abs(L[i + 1]! - L[i - 1]!) / 2 + Math.abs(L[i + width]! - L[i - width]!) / 2;
      g += v;
      if (v < T.smoothGradient) smooth++;
      n++;
    }
  }
  return { texture: n ? g / n : 0, smooth: n ? smooth / n : 0 };
}

/*
 * The per-pixel steps of findLeaves, each a small function of its own: V8 optimises those whole, while loops
 * inside the long, once-a-photo findLeaves ran in baseline code (issue 22, speed).
 */

/** Marks leaf green and leaf yellow in `green`; the count. */
function markGreen(lab: LabPlanes, green: Uint8Array): number {
  const { L, a, b } = lab;
  let greenCount = 0;
  for (let i = 0; i < green.length; i++) {
    if (isLeafGreen(L[i]!, a[i]!, b[i]!) || isLeafYellow(L[i]!, a[i]!, b[i]!)) {
      green[i] = 1;
      greenCount++;
    }
  }
  return greenCount;
}

function inverted(mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = mask[i] ? 0 : 1;
  return out;
}

/** Marks the pixels of the components on the frame of at least `minArea`; their count. */
function markBackground(
  labels: Int32Array,
  areas: Int32Array,
  onFrame: Uint8Array,
  minArea: number,
  background: Uint8Array,
): number {
  let bgCount = 0;
  for (let i = 0; i < labels.length; i++) {
    const id = labels[i]!;
    if (id && onFrame[id] && areas[id]! >= minArea) {
      background[i] = 1;
      bgCount++;
    }
  }
  return bgCount;
}

/** About T.backgroundSamples background colours (L* weighted), evenly through the background in scan order. */
function backgroundSamples(lab: LabPlanes, background: Uint8Array, bgCount: number) {
  const { L, a, b } = lab;
  const step = Math.max(1, Math.floor(bgCount / T.backgroundSamples));
  const samples = new Float32Array(3 * Math.ceil(bgCount / step) + 3);
  let count = 0;
  for (let i = 0, seen = 0; i < background.length; i++) {
    if (!background[i]) continue;
    if (seen++ % step) continue;
    samples[3 * count] = T.lightnessWeight * L[i]!;
    samples[3 * count + 1] = a[i]!;
    samples[3 * count + 2] = b[i]!;
    count++;
  }
  return { samples, count };
}

/** Pixels off the background that are green, or lie clear of every background colour. */
function clearOfBackground(
  lab: LabPlanes,
  background: Uint8Array,
  green: Uint8Array,
  bg: ReturnType<typeof backgroundColours>,
): Uint8Array {
  const { L, a, b } = lab;
  const k = bg.cL.length;
  const clear = new Uint8Array(background.length);
  for (let i = 0; i < clear.length; i++) {
    if (background[i]) continue;
    if (green[i]) {
      clear[i] = 1;
      continue;
    }
    const wl = T.lightnessWeight * L[i]!;
    let d = Infinity;
    for (let j = 0; j < k; j++) {
      if (!bg.n[j]) continue;
      const dj =
        Math.sqrt((wl - bg.cL[j]!) ** 2 + (a[i]! - bg.cA[j]!) ** 2 + (b[i]! - bg.cB[j]!) ** 2) -
        T.spreadFactor * bg.spread[j]!;
      if (dj < d) d = dj;
    }
    if (d >= T.minBackgroundDistance) clear[i] = 1;
  }
  return clear;
}

/** The regions of `comp` that are at least T.minGreenInLeaf green. */
function regionsWithGreen(comp: Components, green: Uint8Array): Uint8Array {
  const withGreen = new Uint8Array(comp.count + 1);
  const greenIn = new Float64Array(comp.count + 1);
  for (let i = 0; i < green.length; i++) if (green[i] && comp.labels[i]) greenIn[comp.labels[i]!]!++;
  for (let id = 1; id <= comp.count; id++) withGreen[id] = greenIn[id]! >= T.minGreenInLeaf * comp.areas[id]! ? 1 : 0;
  const leaf = new Uint8Array(green.length);
  for (let i = 0; i < leaf.length; i++) if (withGreen[comp.labels[i]!]) leaf[i] = 1;
  return leaf;
}

/** What filling the holes added: `filled` and not `mask`. */
function holesOf(filled: Uint8Array, mask: Uint8Array): Uint8Array {
  const holes = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) holes[i] = filled[i]! & (mask[i]! ^ 1);
  return holes;
}

/** Fills the holes (components of `holes`) of at most `speck` pixels into `leaf`. */
function fillSpecks(leaf: Uint8Array, holes: Components, speck: number): void {
  for (let i = 0; i < leaf.length; i++) if (holes.labels[i] && holes.areas[holes.labels[i]!]! <= speck) leaf[i] = 1;
}

const EMPTY: LeafSceneFeatures = {
  greenShare: 0,
  backgroundShare: 0,
  backgroundTexture: 0,
  backgroundSmooth: 0,
  backgroundPerimeter: 0,
  nonGreenShare: 0,
};

/**
 * Finds detached leaves on a plain background. `minArea` is the smallest leaf, in pixels of `lab`.
 * `forced`: the caller says the photo shows leaves (no refusal for too little green).
 */
export function findLeaves(lab: LabPlanes, minArea: number, forced = false): LeafScene {
  const { width, height, L } = lab;
  const n = width * height;
  const green = new Uint8Array(n);
  const greenCount = markGreen(lab, green);
  const greenShare = greenCount / n;
  const leafy = greenShare >= T.minGreenShare;
  if (!leafy && !forced) return { leaves: [], refusal: null, leafy, features: { ...EMPTY, greenShare } };

  // Detached leaves leave the board showing along much of the frame; where leaf (or green cloth) holds nearly
  // all of it, there is no plain background to find (and the costly search below is skipped)
  let edgeGreen = 0;
  for (let x = 0; x < width; x++) edgeGreen += green[x]! + green[(height - 1) * width + x]!;
  for (let y = 1; y < height - 1; y++) edgeGreen += green[y * width]! + green[y * width + width - 1]!;
  const edgeShare = 1 - edgeGreen / (2 * (width + height) - 4);
  if (edgeShare < T.minBackgroundPerimeter) {
    return {
      leaves: [],
      refusal: REFUSAL_REASONS.leaves_fill_frame,
      leafy,
      features: { ...EMPTY, greenShare, backgroundPerimeter: edgeShare },
    };
  }

  // Background: what the frame reaches without crossing leaf (green grown by a few pixels, so the leaf's
  // blurred edge and dark veins do not leak it in).
  const r = Math.max(1, Math.round(Math.max(width, height) / 250));
  const leafish = close(green, width, height, 2 * r + 1);
  const grown = dilate(leafish, width, height, 2 * r + 1);
  const notLeaf = inverted(grown);
  const comp = components(notLeaf, width, height, 4);
  const onFrame = new Uint8Array(comp.count + 1);
  let perimeterBg = 0;
  let perimeter = 0;
  const mark = (i: number) => {
    perimeter++;
    const id = comp.labels[i]!;
    if (id) {
      onFrame[id] = 1;
      perimeterBg++;
    }
  };
  for (let x = 0; x < width; x++) {
    mark(x);
    mark((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    mark(y * width);
    mark(y * width + width - 1);
  }
  const background = new Uint8Array(n);
  const bgCount = markBackground(comp.labels, comp.areas, onFrame, T.minBackgroundPiece * n, background);
  const backgroundShare = bgCount / n;
  // texture at a scale above the sensor's grain: a noisy photo of paper is still plain, sand and soil are not
  const { texture, smooth } = meanGradient(boxBlur(L, width, height, T.textureBlur), background, width, height);
  const features: LeafSceneFeatures = {
    greenShare,
    backgroundShare,
    backgroundTexture: texture,
    backgroundSmooth: smooth,
    backgroundPerimeter: perimeter ? perimeterBg / perimeter : 0,
    nonGreenShare: 0,
  };
  if (bgCount < T.minBackgroundShare * n) {
    return {
      leaves: [],
      refusal: REFUSAL_REASONS.leaves_fill_frame,
      leafy,
      features,
    };
  }

  // the background's colours: leaf is what hangs together with the green and lies clear of them all
  const { samples, count } = backgroundSamples(lab, background, bgCount);
  const bg = backgroundColours(samples, count, T.backgroundClusters);
  const clear = clearOfBackground(lab, background, green, bg);
  // keep the clear regions that touch green; fill what the leaf encloses (a pale spot as light as the paper)
  const clearComp = components(clear, width, height, 8);
  let leaf = regionsWithGreen(clearComp, green);
  // holes are the background showing through (between leaflets, insect damage): only specks are filled
  leaf = open(leaf, width, height, 2 * r + 1);
  const filled = fillHoles(leaf, width, height);
  fillSpecks(leaf, components(holesOf(filled, leaf), width, height, 8), T.maxFilledHole * n);

  const lc = components(leaf, width, height, 8);
  let largest = 0;
  for (let id = 1; id <= lc.count; id++) largest = Math.max(largest, lc.areas[id]!);
  const leaves: Specimen[] = [];
  let leafArea = 0;
  let leafGreen = 0;
  for (let id = 1; id <= lc.count; id++) {
    const area = lc.areas[id]!;
    if (area < Math.max(minArea, T.minLeafShare * n, T.minShareOfLargest * largest)) continue;
    const rect: Rect = { x0: lc.minX[id]!, y0: lc.minY[id]!, x1: lc.maxX[id]! + 1, y1: lc.maxY[id]! + 1 };
    const rw = rect.x1 - rect.x0;
    const mask = new Uint8Array(rw * (rect.y1 - rect.y0));
    for (let y = rect.y0; y < rect.y1; y++) {
      for (let x = rect.x0; x < rect.x1; x++) {
        const i = y * width + x;
        if (lc.labels[i] !== id) continue;
        mask[(y - rect.y0) * rw + x - rect.x0] = 1;
        leafGreen += green[i]!;
      }
    }
    leafArea += area;
    leaves.push({ rect, mask, area });
  }
  features.nonGreenShare = leafArea ? 1 - leafGreen / leafArea : 0;
  // numbered as a person reads the photo: rows from the top, each left to right
  leaves.splice(0, leaves.length, ...readingOrder(leaves, (l) => l.rect));
  let refusal: string | null = null;
  const plain =
    texture <= T.maxBackgroundTexture &&
    smooth >= T.minBackgroundSmooth &&
    features.backgroundPerimeter >= T.minBackgroundPerimeter &&
    backgroundShare >= T.minPlainShare;
  if (leaves.length === 0) refusal = null;
  else if (!plain) refusal = REFUSAL_REASONS.leaves_on_plant;
  return { leaves, refusal, leafy, features };
}
