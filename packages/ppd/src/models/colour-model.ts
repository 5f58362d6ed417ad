import { leafLesionProbability } from './leaf-lesions.js';
import type { EngineInfo } from '@cassavascope/contract';
import { boxBlur, rgbToLab, type LabPlanes } from '../imaging/lab.js';
import { boundaryDistance, countOnes, dilate, erode, labelRuns, type Runs } from '../imaging/mask-ops.js';
import { Histogram, otsu, quantile, quantileAt } from '../imaging/otsu.js';
import type { RgbImage } from '../imaging/raster.js';
import { isFlesh } from '../imaging/tissue-colours.js';
import type { SpecimenKind } from '../types.js';
import { hullOfRows, rowExtremes, type RowSpans } from '../imaging/convex-hull.js';
import { NOT_SPECIMEN, type SegmentationModel } from './segmentation-model.js';
import { defaultSliceModel, learnedLesionShare } from '../learned/default-slice-model.js';
import { photoReference, type PhotoReference } from '../learned/pixel-features.js';
import { CUT_OUT_LESION, SLICE_LESION } from './tuning.js';
import { cutOutLesionProbability, fillShoulder } from './cut-out-lesions.js';

export const COLOUR_ENGINE_INFO: EngineInfo = { name: 'colour', label: 'Colour segmentation (CIELAB)', kind: 'colour' };

/** Lightness counts half in background distances: shading and vignetting move L far more than hue. */
const BG_L_WEIGHT = 0.5;
/** Background distance (weighted CIELAB units) below which a pixel is never a specimen: uniform scenes find nothing. */
const BG_MIN_CUT = 6;
/** ... plus this share of the most spread background colour (grain, weave). */
const BG_TEXTURE_MARGIN = 0.4;
/** 0 specimen, 1 shadow-coloured (not yet reached), 2 background (or reached shadow); null without shadow colours. */
function shadowStates(
  dist: Float32Array,
  L: Float32Array,
  A: Float32Array,
  B: Float32Array,
  cut: number,
  bg: BackgroundColours,
  shade: ShadowModel,
): Uint8Array | null {
  const state = new Uint8Array(dist.length);
  let any = false;
  for (let i = 0; i < dist.length; i++) {
    if (dist[i]! <= cut) state[i] = 2;
    else if (backgroundDistance(L[i]!, A[i]!, B[i]!, bg, shade, cut) <= cut) {
      state[i] = 1;
      any = true;
    }
  }
  return any ? state : null;
}

/**
 * Drop shadows: the background in shadow keeps its chromaticity and only darkens, down to this share of its
 * L* + 16 (a soft lab shadow takes away at most about two thirds of the light). Modelled only for neutral
 * backgrounds (chroma up to SHADOW_MAX_CHROMA): on wood or a blue board, darkened background has the hue of
 * brown or blue-black lesions.
 */
const SHADOW_MIN_LIGHT = 0.45;
const SHADOW_MAX_CHROMA = 12;
/** Largest lightness change between neighbouring (blurred, half-size) pixels inside a shadow's penumbra. */
const SHADOW_MAX_STEP = 2.5;
/** Pixels at least this likely to be specimen (or past the cut before the blur) can outline one. */
const OUTLINE_PROBABILITY = 0.35;
/**
 * Background-coloured areas enclosed by an outline join the specimen when they hold between these shares of
 * the image: smaller ones are grain or noise; no slice covers a third of the frame (a dish or tray rim does).
 */
const MIN_ENCLOSED_SHARE = 0.001;
const MAX_ENCLOSED_SHARE = 0.3;
const ENCLOSED_PROBABILITY = 0.6;
/** Hysteresis never reaches closer to the background than this (weighted CIELAB units). */
const HYSTERESIS_MIN_CUT = 3;
/** ... and grows only through cream flesh (chroma at least this), never through grey shadow. */
const HYSTERESIS_MIN_CHROMA = 3;
/** A specimen pixel is at least this many times farther from the background than the frame's own 98th percentile. */
const BG_NOISE_FACTOR = 2;
/** Discolouration distance (CIELAB units from the specimen's healthy colour) used when no clear valley exists. */
const LESION_DEFAULT_CUT = 18;
const LESION_MIN_CUT = 12;
const LESION_MAX_CUT = 32;
/** The peel ring, as a share of a specimen's equivalent radius: brown by nature, so not discolouration on its own. */
const PEEL_SHARE = 0.045;
/**
 * Peel is at most this share of a specimen's equivalent radius. The brown part of a real rind (periderm, and
 * a coloured cortex) is a few per cent of the radius; a brown band wider than this just inside the outline is
 * the vascular-ring discolouration PPD starts with, and is scored (it was 0.1, which let rings of lesion that
 * ran all round pass for peel).
 */
const PEEL_MAX_SHARE = 0.06;
/** Share of "discoloured" pixels that makes a boundary band look like peel, and the most the flesh just inside may have. */
const PEEL_RUN_FRACTION = 0.75;
/** Colour step (CIELAB) between peel and what lies inside it. */
const PEEL_MIN_STEP = 15;
const PEEL_SECTORS = 24;
/** Peel must be plain to see in this share of the sectors before it is looked for all round. */
const PEEL_MIN_SECTOR_SHARE = 0.12;
const PEEL_MIN_TOLERANCE = 10;
/**
 * Peel is brown, red-brown or pink (periderm, cortex): a hue between purple-red and yellow, not grey or blue.
 * Blue-black PPD streaks just inside a thin peel are lesion, never peel (CIELAB hue angle, degrees, and chroma).
 */
const PEEL_HUE_MIN = -40;
const PEEL_HUE_MAX = 120;
const PEEL_MIN_CHROMA = 5;
/** A band of a peel run is peel-coloured when at least this share of its pixels is. */
const PEEL_COLOURED_SHARE = 0.5;
/** The healthy mode must hold this share of the specimen; the reference is the median within +-HEALTHY_BAND of it. */
const HEALTHY_MIN_MASS = 0.015;
const HEALTHY_MIN_L = 55;
const TYPICAL_FLESH: Reference = { L: 86, a: 1, b: 18 };
const HEALTHY_BAND = 8;
/** Hue shift counts a little less than darkening: flesh colour varies between cultivars, darkening is PPD. */
const CHROMA_WEIGHT = 0.6;

/** Could this colour be peel (brown, red-brown, pink), rather than blue-black or grey lesion? */
function peelColoured(a: number, b: number): boolean {
  if (a * a + b * b < PEEL_MIN_CHROMA * PEEL_MIN_CHROMA) return false;
  const hue = (Math.atan2(b, a) * 180) / Math.PI;
  return hue >= PEEL_HUE_MIN && hue <= PEEL_HUE_MAX;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Bark: the brown, reddish outside of the root (a* above a few units, hue 30-80 degrees, clearly coloured, darker
 * than flesh). Measured on the real tray: bark L* 30-50, a* 6-12, hue 57-76; CBSD necrosis is olive to grey
 * (a* -3 to 3, hue 74-103), blue-black PPD streaks are bluer still.
 */
function barkColoured(L: number, a: number, b: number): boolean {
  if (L > 62 || a < 4 || a * a + b * b < 12 * 12) return false;
  const hue = (Math.atan2(b, a) * 180) / Math.PI;
  return hue >= 30 && hue <= 80;
}

/** A bark crescent is at most this share of the specimen, and reaches round at most this share of it. */
const CRESCENT_MAX_SHARE = 0.4;
const CRESCENT_MAX_REACH = 0.75;
/** ... and at least this much of it is bark-coloured. */
const CRESCENT_MIN_BARK = 0.5;

/**
 * A slice cut at a slant, or photographed from the side, shows the root's outside as a wide crescent of bark
 * beside its flesh face (6-30 % of the radius on one side, far past a peel ring). The face is the convex hull
 * of the tissue that reads healthy; what lies outside it, when it is mostly bark-coloured, on one side only,
 * and a minor part of the specimen, is not cut surface: it leaves the specimen (neither lesion nor area).
 * Returns those pixels, or null when there is no such crescent.
 * A brown lesion inside the face stays, since flesh round it keeps it inside the hull; a slice discoloured all
 * round has no one-sided crescent.
 */
function barkCrescent(
  p: Float32Array,
  lab: LabPlanes,
  mask: Uint8Array,
  width: number,
  height: number,
): Uint8Array | null {
  const area = countOnes(mask);
  let cx = 0;
  let cy = 0;
  let healthy = 0;
  // row by row: no division a pixel
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      if (!mask[i] || p[i]! >= 0.5) continue;
      healthy++;
      cx += x;
      cy += y;
    }
  }
  if (healthy < 0.3 * area) return null;
  cx /= healthy;
  cy /= healthy;
  const face = healthyHull(p, mask, width, height);
  let crescent = 0;
  let bark = 0;
  const SECTORS = 36;
  const sectors = new Float64Array(SECTORS);
  for (let y = 0, i = 0; y < height; y++) {
    const { lo, hi } = faceRow(face, y);
    for (let x = 0; x < width; x++, i++) {
      // the specimen's pixels outside the face's hull
      if (!mask[i] || (x >= lo && x <= hi)) continue;
      crescent++;
      if (barkColoured(lab.L[i]!, lab.a[i]!, lab.b[i]!)) bark++;
      const angle = Math.atan2(y - cy, x - cx);
      sectors[Math.min(SECTORS - 1, Math.floor(((angle + Math.PI) / (2 * Math.PI)) * SECTORS))]!++;
    }
  }
  // the sectors where the crescent is thick (at least half its mean per sector): a one-sided crescent fills
  // about half of them, a band all round fills all
  let reach = 0;
  for (const n of sectors) if (n >= (0.5 * crescent) / SECTORS) reach++;
  if (
    crescent < 0.03 * area ||
    crescent > CRESCENT_MAX_SHARE * area ||
    bark < CRESCENT_MIN_BARK * crescent ||
    reach > CRESCENT_MAX_REACH * SECTORS
  )
    return null;
  const out = new Uint8Array(mask.length);
  for (let y = 0, i = 0; y < height; y++) {
    const { lo, hi } = faceRow(face, y);
    for (let x = 0; x < width; x++, i++) if (mask[i] && (x < lo || x > hi)) out[i] = 1;
  }
  return out;
}

/** The convex hull of the specimen's pixels that read healthy (P < 0.5). */
function healthyHull(p: Float32Array, mask: Uint8Array, width: number, height: number): RowSpans {
  const rows = rowExtremes(0, height - 1);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      if (mask[i] === 1 && p[i]! < 0.5) {
        if (rows.lo[y]! < 0) rows.lo[y] = x;
        rows.hi[y] = x;
      }
    }
  }
  return hullOfRows(rows);
}

/** The hull's span on row y (lo > hi when the row is outside it or empty). */
function faceRow(face: RowSpans, y: number): { lo: number; hi: number } {
  const r = y - face.y0;
  return r < 0 || r >= face.xmin.length ? { lo: 1, hi: 0 } : { lo: face.xmin[r]!, hi: face.xmax[r]! };
}

/**
 * Outline closure: the areas an `outline` mask (weak specimen evidence) closes all round, when they are of a
 * slice's size, plus the outline pixels within `ringWidth` of them. A slice whose rim lesions match the table
 * keeps its rim; a slice of the paper's own white inside a thin peel is found at all.
 */
function enclosedByOutlines(outline: Uint8Array, width: number, height: number, ringWidth: number): Uint8Array {
  const n = width * height;
  const add = new Uint8Array(n);
  // the areas outside the outline, as runs: those that do not reach the border are enclosed
  const runs = labelRuns(outline, width, height, 0, 4);
  const area = new Float64Array(runs.count);
  for (let r = 0; r < runs.count; r++) if (!runs.border(r)) area[runs.rootOf(r)]! += runs.x1[r]! - runs.x0[r]!;
  let any = false;
  for (let r = 0; r < runs.count; r++) {
    const a = area[runs.rootOf(r)]!;
    if (a < MIN_ENCLOSED_SHARE * n || a > MAX_ENCLOSED_SHARE * n) continue;
    const o = runs.row[r]! * width;
    add.fill(1, o + runs.x0[r]!, o + runs.x1[r]!);
    any = true;
  }
  if (!any) return add;
  const near = dilate(add, width, height, ringWidth);
  for (let i = 0; i < n; i++) if (near[i] && outline[i]) add[i] = 1;
  return add;
}

interface Reference {
  L: number;
  a: number;
  b: number;
}

interface Cluster {
  L: number;
  a: number;
  b: number;
  spread: number;
  share: number;
}

/** A frame colour this uniform (CIELAB spread, after the blur) is a digital fill, no photographed surface. */
const FLAT_FILL_SPREAD = 0.6;
const FLAT_FILL_MIN_REACH = 0.1;
/** Perimeter bins for the "how far round the frame does this colour reach" test. */
const PERIMETER_BINS = 64;
/** A colour holds a bin when it is at least this share of the bin's strip pixels. */
const BIN_HOLD_SHARE = 0.25;
/**
 * A frame colour is background when it holds at least this share of the perimeter bins. A slice touching the
 * frame (or pressed into a corner) holds a few contiguous bins; a board, paper, grain or a lighting gradient runs
 * much further round. The colour holding most bins is background in any case.
 */
const BG_MIN_PERIMETER = 0.3;
/**
 * Frame colours are one graded background when the darker is the lighter in less light (a*, b* scaled with
 * L* + 16) within this many units, and their lightness is this close. Cream flesh beside white paper is not
 * white in shade: its b* is 5-10 where shaded white stays at 0.
 */
const GRADE_MAX_CHROMA_STEP = 3.5;
const GRADE_NEUTRAL_CHROMA = 1.5;
const GRADE_MAX_L_STEP = 15;

/**
 * The index of the value of rank `rank` in a stable sort of `values` (`sorted` is their numeric sort): among
 * equal values, the one that came first comes first.
 */
function rankedIndex(values: Float64Array, sorted: Float64Array, rank: number): number {
  const v = sorted[rank]!;
  let before = 0;
  for (const x of values) if (x < v) before++;
  let tie = rank - before;
  for (let i = 0; i < values.length; i++) if (values[i] === v && tie-- === 0) return i;
  return rank;
}

/** Width of the frame strip the background is sampled from (and its noise measured on): 3 % of the short side. */
function frameStripWidth(width: number, height: number): number {
  return Math.max(2, Math.round(Math.min(width, height) * 0.03));
}

/** Colour samples along the frame strip (about 6000), each with its perimeter bin. Typed arrays throughout. */
function frameSamples(
  L: Float32Array,
  A: Float32Array,
  B: Float32Array,
  width: number,
  height: number,
): { L: Float64Array; a: Float64Array; b: Float64Array; bin: Int32Array } {
  const strip = frameStripWidth(width, height);
  const sideRow = strip < width - strip ? 2 * strip : width;
  let stripPixels = 0;
  for (let y = 0; y < height; y++) stripPixels += y < strip || y >= height - strip ? width : sideRow;
  const idx = new Int32Array(stripPixels);
  const binOf = new Int32Array(stripPixels);
  const perimeter = 2 * (width + height);
  let at = 0;
  for (let y = 0; y < height; y++) {
    const edgeRow = y < strip || y >= height - strip;
    for (let x = 0; x < width; x++) {
      // the strip only: whole rows at the top and bottom, between them the two side strips
      if (!edgeRow && x === strip) x = Math.max(strip, width - strip);
      idx[at] = y * width + x;
      // position along the perimeter of the nearest frame edge, clockwise from the top-left corner
      const dTop = y;
      const dBottom = height - 1 - y;
      const dLeft = x;
      const dRight = width - 1 - x;
      const m = Math.min(dTop, dBottom, dLeft, dRight);
      const pos =
        m === dTop
          ? x
          : m === dRight
            ? width + y
            : m === dBottom
              ? width + height + (width - 1 - x)
              : 2 * width + height + (height - 1 - y);
      binOf[at++] = Math.min(PERIMETER_BINS - 1, Math.floor((pos / perimeter) * PERIMETER_BINS));
    }
  }
  const step = Math.max(1, Math.floor(stripPixels / 6000));
  const samples = Math.ceil(stripPixels / step);
  const sL = new Float64Array(samples);
  const sa = new Float64Array(samples);
  const sb = new Float64Array(samples);
  const sBin = new Int32Array(samples);
  for (let i = 0, j = 0; i < stripPixels; i += step, j++) {
    const p = idx[i]!;
    sL[j] = L[p]! * BG_L_WEIGHT;
    sa[j] = A[p]!;
    sb[j] = B[p]!;
    sBin[j] = binOf[i]!;
  }
  return { L: sL, a: sa, b: sb, bin: sBin };
}

/** k-means of the samples, seeded over their lightness order; the centres and each sample's centre. */
function kMeans(
  sL: Float64Array,
  sa: Float64Array,
  sb: Float64Array,
  k: number,
): { cL: Float64Array; ca: Float64Array; cb: Float64Array; assign: Int32Array } {
  const n = sL.length;
  // Seeds spread over the lightness order, so dark and light grain both get a centre.
  const sorted = sL.slice().sort();
  const cL = new Float64Array(k);
  const ca = new Float64Array(k);
  const cb = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const s = rankedIndex(sL, sorted, Math.floor(((j + 0.5) / k) * n));
    cL[j] = sL[s]!;
    ca[j] = sa[s]!;
    cb[j] = sb[s]!;
  }
  const assign = new Int32Array(n);
  const m = new Float64Array(k);
  const tL = new Float64Array(k);
  const ta = new Float64Array(k);
  const tb = new Float64Array(k);
  for (let iter = 0; iter < 10; iter++) {
    m.fill(0);
    tL.fill(0);
    ta.fill(0);
    tb.fill(0);
    let changed = false;
    for (let i = 0; i < n; i++) {
      const l = sL[i]!;
      const a = sa[i]!;
      const b = sb[i]!;
      let best = 0;
      let bestD = Infinity;
      for (let j = 0; j < k; j++) {
        const dl = l - cL[j]!;
        const da = a - ca[j]!;
        const db = b - cb[j]!;
        const d = dl * dl + da * da + db * db;
        if (d < bestD) {
          bestD = d;
          best = j;
        }
      }
      if (assign[i] !== best) changed = true;
      assign[i] = best;
      m[best]!++;
      tL[best]! += l;
      ta[best]! += a;
      tb[best]! += b;
    }
    // the same assignment as the last round gives the same centres again, and so on: converged
    if (iter > 0 && !changed) break;
    for (let j = 0; j < k; j++) {
      if (m[j]! > 0) {
        cL[j] = tL[j]! / m[j]!;
        ca[j] = ta[j]! / m[j]!;
        cb[j] = tb[j]! / m[j]!;
      }
    }
  }
  return { cL, ca, cb, assign };
}

/**
 * k-means on the border strip: a few colours describe plain, graded, wood-grain or cloth backgrounds. The frame
 * is not assumed to be background: a colour is background only when it reaches far enough round the frame
 * (specimens touching the frame, or cropped tight, hold only the stretch they touch).
 */
export function backgroundClusters(
  L: Float32Array,
  A: Float32Array,
  B: Float32Array,
  width: number,
  height: number,
): { background: Cluster[]; specimen: Cluster[]; flatFill: Cluster | null } {
  const { L: sL, a: sa, b: sb, bin: sBin } = frameSamples(L, A, B, width, height);
  const n = sL.length;
  const k = Math.min(5, n);
  const { cL, ca, cb, assign } = kMeans(sL, sa, sb, k);
  const binTotal = new Float64Array(PERIMETER_BINS);
  for (let i = 0; i < n; i++) binTotal[sBin[i]!]!++;
  const all: Cluster[] = [];
  const perBin: Float64Array[] = [];
  for (let j = 0; j < k; j++) {
    const inBin = new Float64Array(PERIMETER_BINS);
    const { m, sq } = clusterSpread(sL, sa, sb, sBin, assign, j, cL[j]!, ca[j]!, cb[j]!, inBin);
    if (m === 0) continue;
    all.push({ L: cL[j]!, a: ca[j]!, b: cb[j]!, spread: Math.sqrt(sq / m), share: m / n });
    perBin.push(inBin);
  }
  // A lighting gradient splits one board into several colours of one chromaticity, each reaching only part
  // of the way round: colours of nearly the same chromaticity and neighbouring lightness reach round together.
  const group = all.map((_, j) => j);
  const root = (j: number): number => (group[j] === j ? j : (group[j] = root(group[j]!)));
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const p = all[i]!;
      const q = all[j]!;
      if (Math.abs(p.L - q.L) / BG_L_WEIGHT > GRADE_MAX_L_STEP) continue;
      // less light scales L* + 16, a* and b* by one factor: the darker colour is the lighter one shaded
      const [light, dark] = p.L >= q.L ? [p, q] : [q, p];
      const m = (dark.L / BG_L_WEIGHT + 16) / (light.L / BG_L_WEIGHT + 16);
      // a neutral card shades to neutral: near-white flesh (b* 3-10) is never white paper in shade
      const neutral = Math.hypot(light.a, light.b) < 8;
      const step = Math.hypot(dark.a - m * light.a, dark.b - m * light.b);
      if (neutral ? Math.hypot(dark.a, dark.b) <= GRADE_NEUTRAL_CHROMA : step <= GRADE_MAX_CHROMA_STEP)
        group[root(j)] = root(i);
    }
  }
  const reachOf = new Map<number, number>();
  for (let g = 0; g < all.length; g++) {
    if (root(g) !== g) continue;
    let held = 0;
    let bins = 0;
    for (let b = 0; b < PERIMETER_BINS; b++) {
      if (binTotal[b]! === 0) continue;
      bins++;
      let c = 0;
      for (let j = 0; j < all.length; j++) if (root(j) === g) c += perBin[j]![b]!;
      if (c >= BIN_HOLD_SHARE * binTotal[b]!) held++;
    }
    reachOf.set(g, bins ? held / bins : 0);
  }
  const clusters = all.map((c, j) => ({ cluster: c, spread: c.spread, reach: reachOf.get(root(j))! }));
  const widest = Math.max(...clusters.map((c) => c.reach));
  // A flat digital fill (a cut-out's painted surround: no sensor noise at all) is the background whenever the
  // frame shows it, and then nothing else is: the specimen it surrounds touches the frame on long stretches.
  const flat = clusters.some((c) => c.spread <= FLAT_FILL_SPREAD && c.reach >= FLAT_FILL_MIN_REACH);
  const isBackground = (c: { reach: number; spread: number }) =>
    flat
      ? c.spread <= FLAT_FILL_SPREAD && c.reach >= FLAT_FILL_MIN_REACH
      : c.reach >= BG_MIN_PERIMETER || c.reach === widest;
  return {
    // commonest first: the per-pixel distance stops at the first colour close enough, mostly this one
    background: clusters
      .filter(isBackground)
      .map((c) => c.cluster)
      .sort((p, q) => q.share - p.share),
    specimen: clusters.filter((c) => !isBackground(c)).map((c) => c.cluster),
    // the fill itself (the flat colour reaching furthest round the frame), for what reads cut-outs
    flatFill: flat
      ? clusters
          .filter((c) => c.spread <= FLAT_FILL_SPREAD && c.reach >= FLAT_FILL_MIN_REACH)
          .sort((p, q) => q.reach - p.reach)[0]!.cluster
      : null,
  };
}

/**
 * Colour j's sample count and summed squared distance from its centre; its samples per perimeter bin into
 * `inBin`. A small function of its own (its loop in backgroundClusters was recompiled with the long function).
 */
function clusterSpread(
  sL: Float64Array,
  sa: Float64Array,
  sb: Float64Array,
  sBin: Int32Array,
  assign: Int32Array,
  j: number,
  cL: number,
  ca: number,
  cb: number,
  inBin: Float64Array,
): { m: number; sq: number } {
  let m = 0;
  let sq = 0;
  for (let i = 0; i < sL.length; i++) {
    if (assign[i] !== j) continue;
    m++;
    sq += (sL[i]! - cL) ** 2 + (sa[i]! - ca) ** 2 + (sb[i]! - cb) ** 2;
    inBin[sBin[i]!]!++;
  }
  return { m, sq };
}

/** Which background colours may cast a shadow, as flat arrays for the per-pixel loops. */
interface ShadowModel {
  /** 1 when colour j's shadow is modelled (a neutral card or tray), else 0. */
  on: Uint8Array;
  /** L* + 16 of colour j (the Lab offset that scales with the light). */
  l16: Float64Array;
}

function shadowModel(clusters: Cluster[]): ShadowModel {
  return {
    on: Uint8Array.from(clusters, (c) => (Math.hypot(c.a, c.b) <= SHADOW_MAX_CHROMA ? 1 : 0)),
    l16: Float64Array.from(clusters, (c) => c.L / BG_L_WEIGHT + 16),
  };
}

/** The background colours as flat arrays, for the per-pixel loops: weighted L*, a*, b*, and 1.5 x their spread. */
interface BackgroundColours {
  L: Float64Array;
  a: Float64Array;
  b: Float64Array;
  margin: Float64Array;
}

function backgroundColours(clusters: Cluster[]): BackgroundColours {
  return {
    L: Float64Array.from(clusters, (c) => c.L),
    a: Float64Array.from(clusters, (c) => c.a),
    b: Float64Array.from(clusters, (c) => c.b),
    margin: Float64Array.from(clusters, (c) => 1.5 * c.spread),
  };
}

/*
 * The per-pixel loops over backgroundDistance live in small functions of their own: V8 inlines the distance
 * there (in the long specimenProbability it did not, and every call boxed its result: megabytes of garbage a photo).
 */

/** Every pixel's distance to the background, 0 within it. */
function distanceMap(L: Float32Array, A: Float32Array, B: Float32Array, bg: BackgroundColours): Float32Array {
  const dist = new Float32Array(L.length);
  for (let i = 0; i < dist.length; i++) {
    const d = backgroundDistance(L[i]!, A[i]!, B[i]!, bg, null, 0);
    dist[i] = d > 0 ? d : 0;
  }
  return dist;
}

/**
 * Marks in `outline` (where not marked yet) the pixels past `cut` from every background colour, and from that
 * colour in shadow where `shadow` marks a cast shadow.
 */
function markPastBackground(
  outline: Uint8Array,
  lab: LabPlanes,
  bg: BackgroundColours,
  shade: ShadowModel,
  shadow: Uint8Array | null,
  cut: number,
): void {
  for (let i = 0; i < outline.length; i++) {
    if (outline[i]) continue;
    outline[i] = backgroundDistance(lab.L[i]!, lab.a[i]!, lab.b[i]!, bg, shadow?.[i] ? shade : null, cut) > cut ? 1 : 0;
  }
}

/**
 * Distance of a colour to the background: to the nearest background colour (lightness weighted, minus the
 * colour's spread), or to that colour in shadow. Stops as soon as it is at most `enough` (the caller only asks
 * whether it is past a cut, or clamps it at 0): most pixels are background, near the first (commonest) colour. Less light scales linear RGB, which in CIELAB scales L* + 16,
 * a* and b* by one factor m: a shadow is the background colour times m, m between SHADOW_MIN_LIGHT and 1
 * (chromaticity unchanged, only darker), so its distance is how far its a*, b* are from the scaled ones.
 */
function backgroundDistance(
  Lp: number,
  a: number,
  b: number,
  bg: BackgroundColours,
  shade: ShadowModel | null,
  enough: number,
): number {
  const { L: cL, a: ca, b: cb, margin } = bg;
  const l = Lp * BG_L_WEIGHT;
  let best = Infinity;
  for (let j = 0; j < cL.length && best > enough; j++) {
    const dl0 = l - cL[j]!;
    const da0 = a - ca[j]!;
    const db0 = b - cb[j]!;
    const d2 = dl0 * dl0 + da0 * da0 + db0 * db0;
    // the square root only for a colour that can beat the best so far (this runs per pixel and colour)
    const reach = best + margin[j]!;
    let d = reach > 0 && d2 >= reach * reach ? Infinity : Math.sqrt(d2) - margin[j]!;
    if (shade && shade.on[j] && Lp < cL[j]! / BG_L_WEIGHT) {
      const m = Math.max(SHADOW_MIN_LIGHT, (Lp + 16) / shade.l16[j]!);
      const dl = BG_L_WEIGHT * (Lp + 16 - m * shade.l16[j]!);
      const ds = Math.sqrt(dl * dl + (a - m * ca[j]!) ** 2 + (b - m * cb[j]!) ** 2) - margin[j]!;
      if (ds < d) d = ds;
    }
    if (d < best) best = d;
  }
  return best;
}

/**
 * Drop shadows: pixels past the cut from every background colour but within it of a background colour in
 * shadow (same chromaticity, darker), that are reached from the background without crossing a sharp step:
 * a shadow fades into the background over a soft penumbra, while a specimen's edge (peel, a rim lesion) is
 * a step. Flooded from the background over 4-neighbours whose blurred lightness differs by at most
 * SHADOW_MAX_STEP. Null when the photo has no shadow-coloured pixels.
 */
function castShadow(
  dist: Float32Array,
  L: Float32Array,
  A: Float32Array,
  B: Float32Array,
  width: number,
  height: number,
  cut: number,
  bg: BackgroundColours,
  shade: ShadowModel,
): Uint8Array | null {
  if (!shade.on.some((v) => v)) return null;
  const n = width * height;
  const state = shadowStates(dist, L, A, B, cut, bg, shade);
  if (!state) return null;
  const step = SHADOW_MAX_STEP;
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const out = new Uint8Array(n);
  const visit = (j: number, l: number) => {
    if (state[j] !== 1 || Math.abs(L[j]! - l) > step) return;
    state[j] = 2;
    out[j] = 1;
    queue[tail++] = j;
  };
  for (let i = 0; i < n; i++) {
    if (state[i] !== 1) continue;
    const x = i % width;
    const l = L[i]!;
    // seeds: shadow-coloured pixels next to plain background
    const nb = (j: number) => state[j] === 2 && !out[j] && Math.abs(L[j]! - l) <= step;
    if (
      (x > 0 && nb(i - 1)) ||
      (x < width - 1 && nb(i + 1)) ||
      (i >= width && nb(i - width)) ||
      (i + width < n && nb(i + width))
    ) {
      state[i] = 2;
      out[i] = 1;
      queue[tail++] = i;
    }
  }
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % width;
    const l = L[i]!;
    if (x > 0) visit(i - 1, l);
    if (x < width - 1) visit(i + 1, l);
    if (i >= width) visit(i - width, l);
    if (i + width < n) visit(i + width, l);
  }
  return tail > 0 ? out : null;
}

/**
 * Healthy flesh is the lightest tissue: the lightest lightness mode that holds at least a few per cent of
 * `where` (so a slice that is 90 % discoloured still finds its healthy 10 %, and a specular glint does not
 * count), and the median colour of the pixels around that mode.
 */
function healthyReference(lab: LabPlanes, where: Uint8Array): Reference {
  // counts (integers: an Int32Array increments faster than a Float64Array, with the same sums)
  const hist = new Int32Array(101);
  let total = 0;
  for (let i = 0; i < where.length; i++) {
    if (!where[i]) continue;
    const l = lab.L[i]!;
    hist[l <= 0 ? 0 : l >= 100 ? 100 : Math.round(l)]!++;
    total++;
  }
  const win = (c: number, r: number) => {
    let m = 0;
    for (let k = Math.max(0, c - r); k <= Math.min(100, c + r); k++) m += hist[k]!;
    return m;
  };
  let mode = -1;
  for (let c = 100; c >= 0; c--) {
    const m = win(c, 3);
    if (m < HEALTHY_MIN_MASS * total) continue;
    // walk up to the local maximum of this lightest heavy region
    mode = c;
    while (mode > 0 && win(mode - 1, 3) > win(mode, 3)) mode--;
    break;
  }
  if (mode < 0) mode = Math.round(quantile(lab.L, 0.5, where));
  const L = new Histogram(0, 100);
  const a = new Histogram(-128, 128);
  const b = new Histogram(-128, 128);
  for (let i = 0; i < where.length; i++) {
    if (!where[i] || Math.abs(lab.L[i]! - mode) > HEALTHY_BAND) continue;
    L.add(lab.L[i]!);
    a.add(lab.a[i]!);
    b.add(lab.b[i]!);
  }
  return { L: L.quantile(0.5), a: a.quantile(0.5), b: b.quantile(0.5) };
}

/**
 * Peel: many slices keep a brown rind that is not discolouration. Around the rim, in angular sectors, the
 * boundary bands (1 px each, outside in) are compared: peel is an outer run of peel-coloured bands (brown to
 * pink, not blue-black) that reads as "discoloured" and ends in a sharp colour step (to healthy flesh, or to a
 * lesion of another colour). A blue-black streak just inside a thin peel ends the run, so it stays lesion.
 * Where enough sectors agree, the peel's width and colour are measured; then, all the way round, rim pixels
 * of the peel's colour (and peel-coloured) count as healthy tissue. A slice with no such step anywhere keeps
 * its rim.
 */
function stripPeel(
  p: Float32Array,
  lab: LabPlanes,
  mask: Uint8Array,
  dist: Int32Array,
  width: number,
  area: number,
): void {
  const maxBands = Math.max(4, Math.round(PEEL_MAX_SHARE * Math.sqrt(area / Math.PI)));
  const S = PEEL_SECTORS;
  const B = maxBands + 1;
  const { x: cx, y: cy } = centroid(mask, width, area);
  // the boundary bands' pixels, listed once: every later step visits only them, not the whole crop
  const rim = rimPixels(dist, B);
  const band = new Int16Array(rim.count);
  const sector = new Int16Array(rim.count);
  const n = new Float64Array(S * B);
  const sumL = new Float64Array(S * B);
  const sumA = new Float64Array(S * B);
  const sumB = new Float64Array(S * B);
  const dark = new Float64Array(S * B);
  const coloured = new Float64Array(S * B);
  for (let j = 0; j < rim.count; j++) {
    const i = rim.at[j]!;
    const b = dist[i]! - 1;
    const x = i % width;
    const y = (i - x) / width;
    const s = Math.min(S - 1, Math.floor(((Math.atan2(y - cy, x - cx) + Math.PI) / (2 * Math.PI)) * S));
    band[j] = b;
    sector[j] = s;
    const k = s * B + b;
    n[k]!++;
    sumL[k]! += lab.L[i]!;
    sumA[k]! += lab.a[i]!;
    sumB[k]! += lab.b[i]!;
    if (p[i]! >= 0.5) dark[k]!++;
    if (peelColoured(lab.a[i]!, lab.b[i]!)) coloured[k]!++;
  }
  // mean colour and "discoloured" share of bands [from, to) in sector s
  const stats = (s: number, from: number, to: number) => {
    let c = 0;
    let L = 0;
    let A = 0;
    let Bb = 0;
    let d = 0;
    for (let b = from; b < to; b++) {
      const k = s * B + b;
      c += n[k]!;
      L += sumL[k]!;
      A += sumA[k]!;
      Bb += sumB[k]!;
      d += dark[k]!;
    }
    return c > 0 ? { L: L / c, a: A / c, b: Bb / c, dark: d / c } : null;
  };
  const widths = new Int16Array(S);
  for (let s = 0; s < S; s++) {
    let best = 0;
    let bestW = 0;
    for (let w = 2; w <= maxBands - 2; w++) {
      // every band of the run but the outermost (mixed with the background) and the innermost (the step
      // itself, blurred) is peel-coloured; a band that is not ends every longer run too
      const last = s * B + w - 2;
      if (w >= 4 && coloured[last]! < PEEL_COLOURED_SHARE * n[last]!) break;
      const outer = stats(s, 1, w);
      const inner = stats(s, w, w + 2);
      if (!outer || !inner || outer.dark < PEEL_RUN_FRACTION) continue;
      const step = Math.sqrt((outer.L - inner.L) ** 2 + (outer.a - inner.a) ** 2 + (outer.b - inner.b) ** 2);
      if (step > best) {
        best = step;
        bestW = w;
      }
    }
    if (best >= PEEL_MIN_STEP) widths[s] = bestW;
  }
  const found = [...widths].filter((w) => w > 0).sort((x, y) => x - y);
  if (found.length < S * PEEL_MIN_SECTOR_SHARE) return;
  const peelWidth = found[Math.floor(found.length / 2)]!;
  // peel colour and spread, from the sectors that agree on the width
  const agree = new Uint8Array(S);
  for (let s = 0; s < S; s++) agree[s] = widths[s]! > 0 && Math.abs(widths[s]! - peelWidth) <= 1 ? 1 : 0;
  const sel = new Int32Array(rim.count);
  let selCount = 0;
  for (let j = 0; j < rim.count; j++) {
    if (band[j]! >= 1 && band[j]! < peelWidth && agree[sector[j]!]) sel[selCount++] = rim.at[j]!;
  }
  const peel = {
    L: quantileAt(lab.L, sel, selCount, 0.5),
    a: quantileAt(lab.a, sel, selCount, 0.5, -128, 128),
    b: quantileAt(lab.b, sel, selCount, 0.5, -128, 128),
  };
  const peelDist = new Float32Array(mask.length);
  for (let j = 0; j < rim.count; j++) {
    if (band[j]! >= peelWidth) continue;
    const i = rim.at[j]!;
    peelDist[i] = Math.sqrt((lab.L[i]! - peel.L) ** 2 + (lab.a[i]! - peel.a) ** 2 + (lab.b[i]! - peel.b) ** 2);
  }
  const tolerance = Math.max(PEEL_MIN_TOLERANCE, quantileAt(peelDist, sel, selCount, 0.9, 0, 200));
  for (let j = 0; j < rim.count; j++) {
    if (band[j]! >= peelWidth) continue;
    const i = rim.at[j]!;
    if (band[j] === 0 || (peelDist[i]! <= tolerance && peelColoured(lab.a[i]!, lab.b[i]!))) p[i] = 0;
  }
}

/** The mean position of the mask's `area` pixels, summed row by row (no division a pixel). */
function centroid(mask: Uint8Array, width: number, area: number): { x: number; y: number } {
  let cx = 0;
  let cy = 0;
  for (let y = 0, i = 0; i < mask.length; y++) {
    for (let x = 0; x < width; x++, i++) {
      if (!mask[i]) continue;
      cx += x;
      cy += y;
    }
  }
  return { x: cx / area, y: cy / area };
}

/** The pixels of the outline's first `bands` bands (distance 1 to `bands`), in scan order. */
function rimPixels(dist: Int32Array, bands: number): { at: Int32Array; count: number } {
  let count = 0;
  for (let i = 0; i < dist.length; i++) if (dist[i]! >= 1 && dist[i]! <= bands) count++;
  const at = new Int32Array(count);
  for (let i = 0, j = 0; i < dist.length; i++) if (dist[i]! >= 1 && dist[i]! <= bands) at[j++] = i;
  return { at, count };
}

/**
 * The frame strip's background pixels: strip pixels closer to the background than to any frame colour that is
 * not background (a specimen touching the frame is not the frame's noise).
 */
function frameBackground(
  L: Float32Array,
  A: Float32Array,
  B: Float32Array,
  dist: Float32Array,
  width: number,
  height: number,
  frameSpecimen: Cluster[],
): Uint8Array {
  const frame = new Uint8Array(width * height);
  const strip = frameStripWidth(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (y < strip || y >= height - strip || x < strip || x >= width - strip) frame[y * width + x] = 1;
    }
  }
  const cL = Float64Array.from(frameSpecimen, (c) => c.L);
  const ca = Float64Array.from(frameSpecimen, (c) => c.a);
  const cb = Float64Array.from(frameSpecimen, (c) => c.b);
  for (let i = 0; i < frame.length; i++) {
    if (!frame[i]) continue;
    const l = L[i]! * BG_L_WEIGHT;
    for (let j = 0; j < cL.length; j++) {
      const d = Math.sqrt((l - cL[j]!) ** 2 + (A[i]! - ca[j]!) ** 2 + (B[i]! - cb[j]!) ** 2);
      if (d < dist[i]!) {
        frame[i] = 0;
        break;
      }
    }
  }
  return frame;
}

/** P(specimen) from the distance to the background, and the pixels past the cut. */
function specimenOdds(dist: Float32Array, cut: number, slope: number): { p: Float32Array; specimen: Uint8Array } {
  const p = new Float32Array(dist.length);
  const specimen = new Uint8Array(dist.length);
  // most pixels are plain background at distance 0: their probability once
  const p0 = sigmoid(-cut / slope);
  for (let i = 0; i < dist.length; i++) {
    const d = dist[i]!;
    p[i] = d === 0 ? p0 : sigmoid((d - cut) / slope);
    specimen[i] = d > cut ? 1 : 0;
  }
  return { p, specimen };
}

/** Pixels past the low cut that are cream flesh: a grey shadow or a lighting gradient on the card never is. */
function weakFlesh(dist: Float32Array, L: Float32Array, A: Float32Array, B: Float32Array, lowCut: number): Uint8Array {
  const weak = new Uint8Array(dist.length);
  const minChroma2 = HYSTERESIS_MIN_CHROMA * HYSTERESIS_MIN_CHROMA;
  for (let i = 0; i < dist.length; i++)
    weak[i] = dist[i]! > lowCut && A[i]! * A[i]! + B[i]! * B[i]! >= minChroma2 && isFlesh(L[i]!, A[i]!, B[i]!) ? 1 : 0;
  return weak;
}

/*
 * The per-pixel steps of specimenProbability, each a small function of its own, for the reason given above
 * distanceMap: in the long method their loops ran in baseline code and were recompiled photo after photo.
 */

/** 0 in `values` wherever `where` is set. */
function zeroWhere(values: Float32Array, where: Uint8Array): void {
  for (let i = 0; i < values.length; i++) if (where[i]) values[i] = 0;
}

/** The blur's halo (specimen pixels the erosion took away) under one half. */
function capHalo(p: Float32Array, specimen: Uint8Array, kept: Uint8Array): void {
  for (let i = 0; i < p.length; i++) if (specimen[i] && !kept[i]) p[i] = Math.min(p[i]!, 0.49);
}

/** The weak regions (as runs) that hold a specimen pixel join the specimen, at P >= 0.5. */
function growFromStrong(runs: Runs, width: number, specimen: Uint8Array, p: Float32Array): void {
  const strong = new Uint8Array(runs.count);
  for (let k = 0; k < runs.count; k++) {
    const o = runs.row[k]! * width;
    for (let i = o + runs.x0[k]!; i < o + runs.x1[k]!; i++) {
      if (specimen[i]) {
        strong[runs.rootOf(k)] = 1;
        break;
      }
    }
  }
  for (let k = 0; k < runs.count; k++) {
    if (!strong[runs.rootOf(k)]) continue;
    const o = runs.row[k]! * width;
    for (let i = o + runs.x0[k]!; i < o + runs.x1[k]!; i++) {
      specimen[i] = 1;
      p[i] = Math.max(p[i]!, 0.5);
    }
  }
}

/**
 * The outline: pixels likely enough to be specimen; a shadow still outlines as before (it can close a thin
 * peel's gaps), though it is not specimen itself.
 */
function outlineOf(
  p: Float32Array,
  shadow: Uint8Array | null,
  plain: Float32Array,
  cut: number,
  slope: number,
): Uint8Array {
  const outline = new Uint8Array(p.length);
  for (let i = 0; i < p.length; i++)
    outline[i] =
      p[i]! >= OUTLINE_PROBABILITY || (shadow?.[i] && sigmoid((plain[i]! - cut) / slope) >= OUTLINE_PROBABILITY)
        ? 1
        : 0;
  return outline;
}

/** What an outline encloses is specimen, at least ENCLOSED_PROBABILITY likely. */
function markEnclosed(enclosed: Uint8Array, p: Float32Array, specimen: Uint8Array): void {
  for (let i = 0; i < p.length; i++) {
    if (!enclosed[i]) continue;
    p[i] = Math.max(p[i]!, ENCLOSED_PROBABILITY);
    specimen[i] = 1;
  }
}

/** 1 where the distance to the outline exceeds `ring`. */
function deeperThan(edgeDist: Int32Array, ring: number): Uint8Array {
  const inner = new Uint8Array(edgeDist.length);
  for (let i = 0; i < inner.length; i++) inner[i] = edgeDist[i]! > ring ? 1 : 0;
  return inner;
}

/** Each mask pixel's distance from the healthy reference: darkening, and hue shift weighted CHROMA_WEIGHT. */
function discolourationDistance(lab: LabPlanes, mask: Uint8Array, ref: Reference): Float32Array {
  const dist = new Float32Array(mask.length);
  for (let i = 0; i < dist.length; i++) {
    if (!mask[i]) continue;
    const dL = Math.max(0, ref.L - lab.L[i]!);
    const dC2 = (lab.a[i]! - ref.a) ** 2 + (lab.b[i]! - ref.b) ** 2;
    dist[i] = Math.sqrt(dL * dL + CHROMA_WEIGHT * dC2);
  }
  return dist;
}

/** P(discoloured) of the mask pixels: a sigmoid of the distance round the cut. */
function sigmoidOver(p: Float32Array, mask: Uint8Array, dist: Float32Array, cutAt: number, slope: number): void {
  for (let i = 0; i < p.length; i++) if (mask[i]) p[i] = sigmoid((dist[i]! - cutAt) / slope);
}

/**
 * The colour engine: specimens are what differs from the background colours sampled along the frame;
 * discolouration is darkening and hue shift relative to the specimen's own healthy flesh.
 * Holds the last photo's healthy reference between its specimen and lesion calls (a worker runs one photo at a time).
 */
class ColourModel implements SegmentationModel {
  readonly info = COLOUR_ENGINE_INFO;
  private photoReference: Reference | null = null;
  /** the slice classifier's reference colours, from the copy the first segmentation reads (as in training) */
  private learnedReference: PhotoReference | null = null;
  /** the pixels the last scoreSurface stripped as peel (only kept when the classifier is blended in) */
  private peel: Uint8Array | null = null;
  /** the last photo is a cut-out on a flat digital fill (its slices are read as their labels are drawn) */
  private cutOut = false;

  /** `cutOutConvention: false` reads cut-outs by the rules too (the training script fits the convention on them) */
  constructor(private readonly cutOutConvention = CUT_OUT_LESION.enabled) {}

  async specimenProbability(image: RgbImage, imageLab?: LabPlanes): Promise<Float32Array> {
    const { width, height } = image;
    const lab = imageLab ?? rgbToLab(image.data, width, height);
    this.learnedReference = SLICE_LESION.learnedWeight > 0 ? photoReference(lab) : null;
    const r = Math.max(1, Math.round(Math.max(width, height) / 300));
    const L = boxBlur(lab.L, width, height, r);
    const A = boxBlur(lab.a, width, height, r);
    const B = boxBlur(lab.b, width, height, r);
    const { background: clusters, specimen: frameSpecimen, flatFill } = backgroundClusters(L, A, B, width, height);
    // a fill painted white round a cut-out, not white paper clipped by the exposure (models/cut-out-lesions.ts)
    this.cutOut =
      flatFill !== null && isPaintedWhite(flatFill) && fillShoulder(image) <= CUT_OUT_LESION.fillMaxShoulder;
    const bg = backgroundColours(clusters);
    const dist = distanceMap(L, A, B, bg);
    // Plain cards allow a closer cut (white flesh on white paper); textured ones (wood, cloth) need a margin.
    const floor = BG_MIN_CUT + BG_TEXTURE_MARGIN * Math.max(...clusters.map((c) => c.spread));
    const hi = Math.max(floor * 2, quantile(dist, 0.995, undefined, 0, 250));
    const { cut: otsuCut } = otsu(dist, 0, hi);
    // Otsu lands midway between background and the (far) flesh, which would lose dark lesions on a dark
    // card; the background's own spread along the frame says how close to it a specimen may come.
    const frameNoise = quantile(dist, 0.98, frameBackground(L, A, B, dist, width, height, frameSpecimen), 0, 250);
    const noiseCut = BG_NOISE_FACTOR * frameNoise + floor;
    const cut = Math.max(floor, Math.min(otsuCut, noiseCut));
    // Hysteresis: pixels past the background's own noise that hang together with clear specimen pixels are
    // specimen too (flesh nearly as white as the paper, inside a slice the cut found by its peel and lesions).
    const lowCut = Math.min(cut, Math.max(HYSTERESIS_MIN_CUT, BG_NOISE_FACTOR * frameNoise + 1, 0.5 * cut));
    const shade = shadowModel(clusters);
    const shadow = castShadow(dist, L, A, B, width, height, cut, bg, shade);
    const plain = shadow ? dist.slice() : dist;
    if (shadow) zeroWhere(dist, shadow);
    const slope = 0.15 * cut + 1;
    const { p, specimen: past } = specimenOdds(dist, cut, slope);
    let specimen: Uint8Array = past;
    // The blur spreads each edge over 2r+1 px; a cut below Otsu's midpoint takes part of that halo. Peel it
    // back: a linear edge ramp crosses the cut (1/2 - cut / (2 otsu)) (2r + 1) px outside the true edge.
    const halo = Math.round(Math.max(0, 0.5 - cut / (2 * Math.max(cut, otsuCut))) * (2 * r + 1));
    if (halo >= 1) {
      const kept = erode(specimen, width, height, 2 * halo + 1);
      capHalo(p, specimen, kept);
      specimen = kept;
    }
    if (lowCut < cut) {
      const weak = weakFlesh(dist, L, A, B, lowCut);
      // off the blur's edge ramp: a weak pixel must lie a blur radius inside the weak region
      const inner = erode(weak, width, height, 2 * r + 1);
      growFromStrong(labelRuns(inner, width, height, 1, 8), width, specimen, p);
    }
    // A faint outline closed all round still encloses a specimen: the thin peel around a slice whose rim is
    // as brown as the table, or as white as the paper, is plain at full resolution even where the blur
    // above washed it out.
    const outline = outlineOf(p, shadow, plain, cut, slope);
    // past the cut from every background colour (and from its shadow), unblurred: a shadow pixel outlines only
    // where it is not shadow-coloured (a thin peel the blur washed out)
    markPastBackground(outline, lab, bg, shade, shadow, cut);
    markEnclosed(enclosedByOutlines(outline, width, height, 2 * r + 1), p, specimen);
    this.photoReference = countOnes(specimen) > 0 ? healthyReference(lab, specimen) : null;
    return p;
  }

  async lesionProbability(cut: RgbImage, mask: Uint8Array, kind: SpecimenKind = 'root_slice'): Promise<Float32Array> {
    const lab = rgbToLab(cut.data, cut.width, cut.height);
    // a leaf's symptoms are measured against its own green (models/leaf-lesions.ts)
    if (kind === 'leaf') return leafLesionProbability(lab, mask);
    const p = this.sliceLesionProbability(lab, mask, kind);
    // a slice cut out onto a digital fill is read as its labels are drawn: one luma cut estimated from the
    // slice and the rules' reading of it, dark peel ring included (models/cut-out-lesions.ts)
    if (kind === 'root_slice' && this.cutOut && this.cutOutConvention) {
      return cutOutLesionProbability(cut, mask, rulesShare(p, mask));
    }
    return p;
  }

  /** The rules' P(discoloured) of a root slice (peel stripped, bark seen from the side taken out). */
  private sliceLesionProbability(lab: LabPlanes, mask: Uint8Array, kind: SpecimenKind): Float32Array {
    const p = this.scoreSurface(lab, mask, kind);
    // Bark seen from the side leaves the specimen, and the face alone is scored again: the bark's dark brown
    // had set the lesion cut, above the olive streaks of the face itself.
    const bark = barkCrescent(p, lab, mask, lab.width, lab.height);
    if (!bark) return this.blendLearned(p, lab, mask, kind);
    const face = mask.slice();
    for (let i = 0; i < face.length; i++) if (bark[i]) face[i] = 0;
    const q = this.scoreSurface(lab, face, kind);
    for (let i = 0; i < q.length; i++) if (bark[i]) q[i] = NOT_SPECIMEN;
    return this.blendLearned(q, lab, face, kind);
  }

  /**
   * Issue 22 point 5: on a root slice's face the shipped classifier's P(discoloured) is blended in with
   * `SLICE_LESION.learnedWeight`; the peel the rules stripped keeps the rules' reading (the classifier's labels
   * count the peel ring as necrotic), as do bark and pixels out of the specimen.
   */
  private blendLearned(p: Float32Array, lab: LabPlanes, mask: Uint8Array, kind: SpecimenKind): Float32Array {
    const w = SLICE_LESION.learnedWeight;
    const model = w > 0 && kind === 'root_slice' ? defaultSliceModel() : null;
    if (!model || !this.peel) return p;
    const face = new Uint8Array(mask.length);
    for (let i = 0; i < face.length; i++) face[i] = mask[i] && p[i]! >= 0 && !this.peel[i] ? 1 : 0;
    const learned = learnedLesionShare(model, lab, face, this.learnedReference ?? photoReference(lab));
    for (let i = 0; i < face.length; i++) if (face[i]) p[i] = (1 - w) * p[i]! + w * learned[i]!;
    return p;
  }

  /** P(discoloured) of the pixels of `mask`: distance from the healthy reference, cut, peel stripped. */
  private scoreSurface(lab: LabPlanes, mask: Uint8Array, kind: SpecimenKind): Float32Array {
    const { width } = lab;
    const area = countOnes(mask);
    const p = new Float32Array(mask.length);
    if (area === 0) return p;
    const ring = Math.max(1, Math.round(PEEL_SHARE * Math.sqrt(area / Math.PI)));
    // distance to the specimen's outline, shared by the interior test and the peel bands
    const edgeDist = boundaryDistance(mask, width, lab.height);
    let inner = deeperThan(edgeDist, ring);
    if (countOnes(inner) < 0.3 * area) inner = mask;

    const own = healthyReference(lab, inner);
    // A slice that is mostly discoloured has no healthy majority: borrow the photo's healthiest tissue.
    let ref = this.photoReference && own.L < this.photoReference.L - 10 ? this.photoReference : own;
    // No healthy flesh is this dark: the slice is discoloured through; compare with typical flesh instead.
    if (ref.L < HEALTHY_MIN_L) ref = TYPICAL_FLESH;

    const dist = discolourationDistance(lab, mask, ref);
    const o = otsu(dist, 0, 90, inner);
    const cutAt = o.separation >= 0.6 ? Math.min(LESION_MAX_CUT, Math.max(LESION_MIN_CUT, o.cut)) : LESION_DEFAULT_CUT;
    const slope = 0.2 * cutAt;
    sigmoidOver(p, mask, dist, cutAt, slope);

    if (kind === 'root_slice') {
      const before = SLICE_LESION.learnedWeight > 0 ? p.slice() : null;
      stripPeel(p, lab, mask, edgeDist, width, area);
      // what the peel rule lowered is peel, and stays the rules' reading when the classifier is blended in
      if (before) {
        this.peel = new Uint8Array(p.length);
        for (let i = 0; i < p.length; i++) this.peel[i] = p[i]! < before[i]! ? 1 : 0;
      }
    }
    return p;
  }

  async close(): Promise<void> {}
}

/**
 * A fill painted white (the CBSD crops' surround, L* 100): the only digital fill the cut-out convention was
 * learned on (a generated or rendered scene on a flat dark or coloured board is read by the rules).
 */
function isPaintedWhite(fill: Cluster): boolean {
  return fill.L / BG_L_WEIGHT >= CUT_OUT_LESION.fillMinL && Math.hypot(fill.a, fill.b) <= CUT_OUT_LESION.fillMaxChroma;
}

/** The share of a specimen's pixels the rules read discoloured (`p` at 0.5; pixels taken out of it not counted). */
function rulesShare(p: Float32Array, mask: Uint8Array): number {
  let area = 0;
  let lesion = 0;
  for (let i = 0; i < p.length; i++) {
    if (!mask[i] || p[i]! < 0) continue;
    area++;
    if (p[i]! >= 0.5) lesion++;
  }
  return area > 0 ? lesion / area : 0;
}

export function createColourModel(options: { cutOutConvention?: boolean } = {}): SegmentationModel {
  return new ColourModel(options.cutOutConvention ?? CUT_OUT_LESION.enabled);
}
