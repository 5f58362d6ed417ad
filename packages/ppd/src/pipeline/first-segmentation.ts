import {
  hullOfRows,
  planeHullSpans,
  rowExtremes,
  spansArea,
  spansNear,
  type RowSpans,
} from '../imaging/convex-hull.js';
import type { LabPlanes } from '../imaging/lab.js';
import {
  boundaryDistance,
  components,
  countOnes,
  dilate,
  erode,
  fillHoles,
  labelRuns,
  open,
} from '../imaging/mask-ops.js';
import { quantile } from '../imaging/otsu.js';
import { splitTouching } from '../imaging/split-touching.js';
import type { Rect } from '../imaging/raster.js';
import { readingOrder } from './reading-order.js';

/** A kept specimen: its crop rectangle in working pixels and its own pixels inside that crop. */
export interface Specimen {
  rect: Rect;
  mask: Uint8Array;
  area: number;
}

/** More specimens than this in one photo are not scored individually (a tray holds 15-30). */
export const MAX_SPECIMENS = 60;
/** Specimens far smaller than the largest are labels, crumbs or shadows, not slices. */
const MIN_SHARE_OF_LARGEST = 0.1;
/** Fragments below this share of the largest are noise and join no specimen. */
const MIN_FRAGMENT_SHARE = 0.02;
/** A region filling more of its bounding box than this is a label or ruler (a disc fills pi/4 = 0.79). */
const MAX_BOX_FILL = 0.92;
/** A group is completed to its convex hull only when it already fills this much of it (slices are convex; leaves may not be). */
const MIN_SOLIDITY = 0.5;

/**
 * Hull completion fills thin gaps, and gaps that open onto the outside only through a narrow mouth (flesh as
 * pale as the paper, reached by a crack). A gap wider than this share of the specimen's radius (its inscribed
 * radius) that opens onto the outside at least as wide as it is is a real notch of the outline (a
 * heart-shaped or bitten slice, the paper showing), not a rim that looks like the table: filled, it would
 * count paper as healthy flesh.
 */
const MAX_FILLED_GAP = 0.06;
/**
 * ... and only when the gap looks like the background (mean specimen probability under this: flesh as pale as
 * the paper sits between, 0.19-0.27 measured on the real crops, the paper in a notch near 0.1) and is lighter
 * than the specimen itself (discolouration only darkens: a dark gap on a dark board may be a lesion).
 */
const NOTCH_MAX_PROBABILITY = 0.15;

/**
 * A pale interior reaches the background only through a channel narrower than this share of the photo's long
 * side, and is thicker than that itself.
 */
const INTERIOR_NECK = 0.02;

/** Whether any specimen pixel lies on the photo's edge. */
function touchesFrame(mask: Uint8Array, width: number, height: number): boolean {
  for (let x = 0; x < width; x++) if (mask[x] || mask[(height - 1) * width + x]) return true;
  for (let y = 0; y < height; y++) if (mask[y * width] || mask[y * width + width - 1]) return true;
  return false;
}

/**
 * Flesh as pale as the paper inside a slice that touches the frame (a crop cut tight round one slice): the
 * slice's rim is found, but its pale interior reaches the frame through the gap where the rim meets the frame,
 * so it is no hole to fill. The background proper is what the frame reaches through channels at least
 * `2 x INTERIOR_NECK` wide (a morphological opening grown back from the frame). A region beyond a narrower
 * channel, thick itself, whose mean colour stands farther from the background's mean than the background's own
 * spread allows, is the specimen's interior (background between slices laid in a ring is the background's
 * colour and stays background).
 * Only a specimen touching the frame can open its interior to the frame: other photos skip this step.
 */
function fillPaleInteriors(mask: Uint8Array, lab: LabPlanes): Uint8Array {
  const { width, height } = lab;
  const r = Math.max(2, Math.round(INTERIOR_NECK * Math.max(width, height)));
  const k = 2 * r + 1;
  const bg = new Uint8Array(mask.length);
  for (let i = 0; i < bg.length; i++) bg[i] = mask[i] ? 0 : 1;
  // the opened background's parts that touch the frame, as row runs (cheaper than a pixel flood)
  const runs = labelRuns(erode(bg, width, height, k), width, height, 1, 4);
  const seeds = new Uint8Array(mask.length);
  for (let q = 0; q < runs.count; q++) {
    if (runs.border(q)) seeds.fill(1, runs.row[q]! * width + runs.x0[q]!, runs.row[q]! * width + runs.x1[q]!);
  }
  const reached = dilate(seeds, width, height, k);
  const rest = new Uint8Array(mask.length);
  const reachedBg = new Uint8Array(mask.length);
  for (let i = 0; i < rest.length; i++) {
    if (!bg[i]) continue;
    if (reached[i]) reachedBg[i] = 1;
    else rest[i] = 1;
  }
  // most photos end here: what the opening cut off is thin (between close slices, in an outline's hollows)
  const depth = boundaryDistance(rest, width, height);
  let thickest = 0;
  for (let i = 0; i < depth.length; i++) if (depth[i]! > thickest) thickest = depth[i]!;
  if (thickest <= r || countOnes(reachedBg) === 0) return mask;
  // the background's typical colour and spread, over what the frame reaches: medians, since the blurred rims
  // of the specimens along it are no background colour
  const mean = [
    quantile(lab.L, 0.5, reachedBg),
    quantile(lab.a, 0.5, reachedBg, -128, 128),
    quantile(lab.b, 0.5, reachedBg, -128, 128),
  ];
  const off = new Float32Array(mask.length);
  for (let i = 0; i < off.length; i++) {
    if (reachedBg[i])
      off[i] = Math.sqrt((lab.L[i]! - mean[0]!) ** 2 + (lab.a[i]! - mean[1]!) ** 2 + (lab.b[i]! - mean[2]!) ** 2);
  }
  const spread = quantile(off, 0.5, reachedBg, 0, 100);
  const rc = components(rest, width, height, 4);
  const deepest = new Int32Array(rc.count + 1);
  const sums = new Float64Array(3 * (rc.count + 1));
  for (let i = 0; i < rest.length; i++) {
    const id = rc.labels[i]!;
    if (!id) continue;
    deepest[id] = Math.max(deepest[id]!, depth[i]!);
    sums[3 * id]! += lab.L[i]!;
    sums[3 * id + 1]! += lab.a[i]!;
    sums[3 * id + 2]! += lab.b[i]!;
  }
  const interior = new Uint8Array(rc.count + 1);
  for (let id = 1; id <= rc.count; id++) {
    if (deepest[id]! <= r) continue;
    const n = rc.areas[id]!;
    const dE = Math.hypot(
      sums[3 * id]! / n - mean[0]!,
      sums[3 * id + 1]! / n - mean[1]!,
      sums[3 * id + 2]! / n - mean[2]!,
    );
    if (dE > 3 * spread + 3) interior[id] = 1;
  }
  const out = mask.slice();
  for (let i = 0; i < out.length; i++) if (interior[rc.labels[i]!]) out[i] = 1;
  return out;
}

interface Group {
  members: number[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/*
 * findSpecimens' per-pixel steps, each a small function of its own: V8 optimises those whole, while loops
 * inside the long findSpecimens ran in baseline code and were recompiled with it (issue 22, speed).
 */

/** 1 where the probability is at least one half. */
function atLeastHalf(prob: Float32Array): Uint8Array {
  const mask = new Uint8Array(prob.length);
  for (let i = 0; i < mask.length; i++) mask[i] = prob[i]! >= 0.5 ? 1 : 0;
  return mask;
}

/** The group's box, 1 where a pixel belongs to one of its fragments (`memberOf` marks their labels). */
function groupRegion(labels: Int32Array, memberOf: Uint8Array, g: Group, width: number): Uint8Array {
  const gw = g.x1 - g.x0 + 1;
  const region = new Uint8Array(gw * (g.y1 - g.y0 + 1));
  for (let y = g.y0; y <= g.y1; y++) {
    for (let x = g.x0; x <= g.x1; x++)
      if (memberOf[labels[y * width + x]!] === 1) region[(y - g.y0) * gw + (x - g.x0)] = 1;
  }
  return region;
}

/** A specimen's pixels (`own`, in its box `g`) placed in its crop rectangle. */
function placed(own: Uint8Array, g: Group, rect: Rect): Uint8Array {
  const rw = rect.x1 - rect.x0;
  const gw = g.x1 - g.x0 + 1;
  const mask = new Uint8Array(rw * (rect.y1 - rect.y0));
  for (let y = g.y0; y <= g.y1; y++) {
    for (let x = g.x0; x <= g.x1; x++) {
      if (own[(y - g.y0) * gw + (x - g.x0)]) mask[(y - rect.y0) * rw + (x - rect.x0)] = 1;
    }
  }
  return mask;
}

/**
 * First segmentation: specimen probability -> mask (holes filled, specks opened away) -> fragments.
 * Fragments whose convex hulls touch are one specimen (a slice whose discoloured rim looks like the table
 * falls apart into flesh pieces), and each specimen is completed to its hull when it is nearly convex.
 * Specimens under `minSize` working pixels are dropped; the three largest are kept in reading order
 * (rows top to bottom, left to right within a row), each cropped with a small margin.
 */
export function findSpecimens(
  prob: Float32Array,
  width: number,
  height: number,
  minSize: number,
  lab?: LabPlanes,
): Specimen[] {
  let mask = atLeastHalf(prob);
  mask = fillHoles(mask, width, height);
  if (lab && touchesFrame(mask, width, height)) mask = fillPaleInteriors(mask, lab);
  const k = Math.max(3, Math.round(Math.max(width, height) / 200) | 1);
  mask = open(mask, width, height, k, 1);
  const c = components(mask, width, height, 8);
  let largest = 0;
  for (let id = 1; id <= c.count; id++) largest = Math.max(largest, c.areas[id]!);
  const fragments: number[] = [];
  for (let id = 1; id <= c.count; id++)
    if (c.areas[id]! >= Math.max(16, MIN_FRAGMENT_SHARE * largest)) fragments.push(id);
  if (fragments.length === 0) return [];

  const hulls = new Map<number, RowSpans>();
  for (const id of fragments) {
    hulls.set(id, planeHullSpans(c.labels, id, width, c.minX[id]!, c.minY[id]!, c.maxX[id]!, c.maxY[id]!));
  }
  // union-find over fragments whose hulls come within `gap` pixels
  const parent = new Map<number, number>(fragments.map((id) => [id, id]));
  const find = (id: number): number => {
    let r = id;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(id, r);
    return r;
  };
  const gap = Math.max(2, Math.round(0.006 * Math.max(width, height)));
  for (let i = 0; i < fragments.length; i++) {
    for (let j = i + 1; j < fragments.length; j++) {
      const a = fragments[i]!;
      const b = fragments[j]!;
      if (find(a) === find(b)) continue;
      if (
        c.minX[a]! - gap > c.maxX[b]! ||
        c.minX[b]! - gap > c.maxX[a]! ||
        c.minY[a]! - gap > c.maxY[b]! ||
        c.minY[b]! - gap > c.maxY[a]!
      )
        continue;
      if (spansNear(hulls.get(a)!, hulls.get(b)!, gap)) parent.set(find(a), find(b));
    }
  }
  const groups = new Map<number, Group>();
  for (const id of fragments) {
    const root = find(id);
    const g = groups.get(root) ?? { members: [], x0: width, y0: height, x1: -1, y1: -1 };
    g.members.push(id);
    g.x0 = Math.min(g.x0, c.minX[id]!);
    g.y0 = Math.min(g.y0, c.minY[id]!);
    g.x1 = Math.max(g.x1, c.maxX[id]!);
    g.y1 = Math.max(g.y1, c.maxY[id]!);
    groups.set(root, g);
  }

  const memberOf = new Uint8Array(c.count + 1);
  const candidates = [...groups.values()].flatMap((g) => {
    memberOf.fill(0);
    for (const id of g.members) memberOf[id] = 1;
    const gw = g.x1 - g.x0 + 1;
    const gh = g.y1 - g.y0 + 1;
    const region = groupRegion(c.labels, memberOf, g, width);
    // Slices laid touching each other are one region: each becomes a specimen of its own.
    const parts = splitTouching(region, gw, gh) ?? [region];
    return parts.map((part) => completeToHull(part, g, gw, width, prob, lab?.L));
  });

  // Sample labels and rulers are squarely placed rectangles; slices and leaves never fill their box like that.
  const shaped = candidates.filter((s) => s.area / ((s.g.x1 - s.g.x0 + 1) * (s.g.y1 - s.g.y0 + 1)) <= MAX_BOX_FILL);
  if (shaped.length === 0) return [];
  const biggest = Math.max(...shaped.map((s) => s.area));
  const kept = shaped
    .filter((s) => s.area >= Math.max(minSize, MIN_SHARE_OF_LARGEST * biggest))
    .sort((p, q) => q.area - p.area)
    .slice(0, MAX_SPECIMENS);

  // Numbered as a person reads the photo: rows from the top, each from left to right (pipeline/reading-order.ts).
  const ordered = readingOrder(kept, ({ g }) => ({ x0: g.x0, y0: g.y0, x1: g.x1 + 1, y1: g.y1 + 1 }));

  return ordered.map(({ g, own, area }) => {
    const m = Math.round(0.03 * Math.max(g.x1 - g.x0 + 1, g.y1 - g.y0 + 1)) + 2;
    const rect: Rect = {
      x0: Math.max(0, g.x0 - m),
      y0: Math.max(0, g.y0 - m),
      x1: Math.min(width, g.x1 + 1 + m),
      y1: Math.min(height, g.y1 + 1 + m),
    };
    return { rect, mask: placed(own, g, rect), area };
  });
}

/**
 * One specimen from its pixels (`part`, in the group's box): its own box, and its pixels completed to their
 * convex hull when they already fill most of it (a slice whose rim looks like the table is still whole).
 */
function completeToHull(
  part: Uint8Array,
  box: Group,
  boxWidth: number,
  width: number,
  prob: Float32Array,
  lightness?: Float32Array,
) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  let area = 0;
  for (let i = 0; i < part.length; i++) {
    if (!part[i]) continue;
    const x = box.x0 + (i % boxWidth);
    const y = box.y0 + Math.floor(i / boxWidth);
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
    area++;
  }
  // the part's row extremes (it is held in the group's box): its convex hull
  const rows = rowExtremes(y0, y1);
  for (let y = y0; y <= y1; y++) {
    const o = (y - box.y0) * boxWidth - box.x0;
    for (let x = x0; x <= x1; x++) {
      if (part[o + x] === 1) {
        if (rows.lo[y - y0]! < 0) rows.lo[y - y0] = x;
        rows.hi[y - y0] = x;
      }
    }
  }
  const hull = hullOfRows(rows);
  const solid = area / Math.max(1, spansArea(hull)) >= MIN_SOLIDITY;
  const g: Group = { members: box.members, x0, y0, x1, y1 };
  const gw = x1 - x0 + 1;
  const own = new Uint8Array(gw * (y1 - y0 + 1));
  for (let y = y0; y <= y1; y++) {
    const r = y - y0;
    const lo = hull.xmin[r]!;
    const hi = hull.xmax[r]!;
    for (let x = x0; x <= x1; x++) {
      if (part[(y - box.y0) * boxWidth + (x - box.x0)] === 1 || (solid && x >= lo && x <= hi))
        own[r * gw + (x - x0)] = 1;
    }
  }
  if (solid && lightness)
    keepNotchesOpen(own, part, g, box, boxWidth, Math.sqrt(area / Math.PI), prob, lightness, width);
  // area and centre of what the specimen finally is (notches taken back out)
  let count = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < own.length; i++) {
    if (!own[i]) continue;
    count++;
    sx += x0 + (i % gw);
    sy += y0 + Math.floor(i / gw);
  }
  return { g, own, area: count, cx: sx / count, cy: sy / count };
}

/** Takes the wide gaps (see MAX_FILLED_GAP) back out of a hull-completed mask. */
function keepNotchesOpen(
  own: Uint8Array,
  part: Uint8Array,
  g: Group,
  box: Group,
  boxWidth: number,
  radius: number,
  prob: Float32Array,
  lightness: Float32Array,
  width: number,
): void {
  const gw = g.x1 - g.x0 + 1;
  const gh = g.y1 - g.y0 + 1;
  const gap = new Uint8Array(gw * gh);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const i = y * gw + x;
      if (own[i] && part[(y + g.y0 - box.y0) * boxWidth + (x + g.x0 - box.x0)] !== 1) gap[i] = 1;
    }
  }
  const depth = boundaryDistance(gap, gw, gh);
  const c = components(gap, gw, gh, 4);
  const deepest = new Int32Array(c.count + 1);
  const mouth = new Int32Array(c.count + 1);
  const pSum = new Float64Array(c.count + 1);
  const lSum = new Float64Array(c.count + 1);
  let partL = 0;
  let partN = 0;
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const i = y * gw + x;
      if (!gap[i]) {
        if (own[i]) {
          partL += lightness[(y + g.y0) * width + x + g.x0]!;
          partN++;
        }
        continue;
      }
      const id = c.labels[i]!;
      lSum[id]! += lightness[(y + g.y0) * width + x + g.x0]!;
      deepest[id] = Math.max(deepest[id]!, depth[i]!);
      pSum[id]! += prob[(y + g.y0) * width + x + g.x0]!;
      // on the hull's edge: a neighbour outside the completed specimen (or the box)
      const open =
        x === 0 ||
        y === 0 ||
        x === gw - 1 ||
        y === gh - 1 ||
        !own[i - 1] ||
        !own[i + 1] ||
        !own[i - gw] ||
        !own[i + gw];
      if (open) mouth[id]!++;
    }
  }
  const notch = (id: number) =>
    deepest[id]! > MAX_FILLED_GAP * radius &&
    mouth[id]! >= 2 * deepest[id]! &&
    pSum[id]! / c.areas[id]! < NOTCH_MAX_PROBABILITY &&
    lSum[id]! / c.areas[id]! > partL / Math.max(1, partN);
  for (let i = 0; i < gap.length; i++) if (gap[i] && notch(c.labels[i]!)) own[i] = 0;
}

/**
 * A specimen found on the half-size image, brought to working size: the rectangle doubles and the mask is
 * resampled bilinearly (cut at one half), which keeps the outline smooth instead of 2-px steps.
 */
export function upscaleSpecimen(s: Specimen, width: number, height: number): Specimen {
  const rect: Rect = {
    x0: s.rect.x0 * 2,
    y0: s.rect.y0 * 2,
    x1: Math.min(width, s.rect.x1 * 2),
    y1: Math.min(height, s.rect.y1 * 2),
  };
  const sw = s.rect.x1 - s.rect.x0;
  const sh = s.rect.y1 - s.rect.y0;
  const rw = rect.x1 - rect.x0;
  const rh = rect.y1 - rect.y0;
  const mask = new Uint8Array(rw * rh);
  // the horizontal sample positions are the same on every row: worked out once
  const cx0 = new Int32Array(rw);
  const cx1 = new Int32Array(rw);
  const cfx = new Float64Array(rw);
  for (let x = 0; x < rw; x++) {
    const u = Math.min(sw - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
    cx0[x] = Math.floor(u);
    cx1[x] = Math.min(sw - 1, cx0[x]! + 1);
    cfx[x] = u - cx0[x]!;
  }
  let area = 0;
  for (let y = 0; y < rh; y++) {
    const v = Math.min(sh - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(v);
    const y1 = Math.min(sh - 1, y0 + 1);
    const fy = v - y0;
    for (let x = 0; x < rw; x++) {
      const x0 = cx0[x]!;
      const x1 = cx1[x]!;
      const fx = cfx[x]!;
      const top = s.mask[y0 * sw + x0]! * (1 - fx) + s.mask[y0 * sw + x1]! * fx;
      const bottom = s.mask[y1 * sw + x0]! * (1 - fx) + s.mask[y1 * sw + x1]! * fx;
      if (top * (1 - fy) + bottom * fy >= 0.5) {
        mask[y * rw + x] = 1;
        area++;
      }
    }
  }
  return { rect, mask, area };
}
