import { planeHullSpans, spansArea } from './convex-hull.js';
import { boundaryDistance } from './mask-ops.js';

/** A lobe must reach this share of the deepest point's distance to count (smaller bumps are not specimens). */
const MIN_LOBE_DEPTH = 0.35;
/**
 * Two lobes are separate specimens when the neck between them is between these shares of the smaller one's
 * depth: slices pressed together meet along a contact a good part of their width; a bridge of a few pixels
 * is more often one slice that a dark streak nearly cut in two (kept whole, like its separate pieces).
 */
const MIN_NECK_SHARE = 0.2;
const MAX_NECK_SHARE = 0.65;
/**
 * A part whose area exceeds this many times pi x (its centre's chessboard depth)^2 is elongated (a leaf lobe,
 * a streak), not a slice: a disc scores 2, an ellipse of aspect a scores 2 / a.
 */
const MAX_PART_ELONGATION = 3.6;
/**
 * Specimens pressed together leave background in the notches either side of their contact, so the hull of
 * the whole region exceeds the summed hulls of its parts (two touching discs: 1.14; 5 % overlap: 1.11; a row
 * of three: 1.19). One slice whose rim lesions bit notches into its outline (brown lesion on a brown table)
 * falls apart into parts that tile its own hull again (about 1.0): it is not split.
 */
const MIN_HULL_EXCESS = 1.05;

interface Lobe {
  /** pixel index of the lobe's deepest point */
  at: number;
  /** its chessboard distance to the outline */
  depth: number;
}

/**
 * The flood from the deepest pixels down (`order`), joining each pixel to its flooded neighbours' regions in
 * union-find `parent` (-1: not flooded yet): the lobes met through a neck (see MIN_NECK_SHARE), in the order met.
 */
function floodByDepth(
  order: Int32Array,
  depth: Int32Array,
  width: number,
  height: number,
  minDepth: number,
  parent: Int32Array,
): Lobe[] {
  const peak = new Int32Array(depth.length);
  const peakAt = new Int32Array(depth.length);
  const necked: Lobe[] = [];
  for (let o = 0; o < order.length; o++) {
    const p = order[o]!;
    parent[p] = p;
    peak[p] = depth[p]!;
    peakAt[p] = p;
    const x = p % width;
    const y = (p - x) / width;
    // p's root, kept current through the merges below (one find per neighbour, not two)
    let a = p;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if ((dx === 0 && dy === 0) || nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const q = ny * width + nx;
        // not flooded yet, or already joined to p's root (a is a root: find(q) would give a)
        if (parent[q] === -1 || parent[q] === a) continue;
        const b = findRoot(parent, q);
        if (a === b) continue;
        const low = peak[a]! < peak[b]! ? a : b;
        const high = low === a ? b : a;
        // The level where they meet is the neck: p's depth.
        const neck = depth[p]! / peak[low]!;
        if (peak[low]! >= minDepth && neck >= MIN_NECK_SHARE && neck < MAX_NECK_SHARE)
          necked.push({ at: peakAt[low]!, depth: peak[low]! });
        parent[low] = high;
        a = high;
      }
    }
  }
  return necked;
}

/** The union-find root of `i`, compressing the path on the way. */
function findRoot(parent: Int32Array, i: number): number {
  let r = i;
  while (parent[r] !== r) r = parent[r]!;
  while (parent[i] !== r) {
    const next = parent[i]!;
    parent[i] = r;
    i = next;
  }
  return r;
}

/**
 * Splits a region made of specimens that touch (slices laid side by side) into one mask per specimen; null
 * when it is one specimen. The distance to the outline is flooded from the deepest pixels down (union-find):
 * where two deep lobes meet through a neck much narrower than the smaller lobe, they are two specimens.
 * Pixels then go to the lobe with the smallest power distance (|p - c|^2 - R^2), which for two touching
 * discs is the line through their contact. Only lobes of one connected region are split (pieces of a
 * slice broken apart by a dark rim stay together), and only into compact parts, so a lobed leaf stays whole.
 */
export function splitTouching(region: Uint8Array, width: number, height: number): Uint8Array[] | null {
  const depth = boundaryDistance(region, width, height);
  let deepest = 0;
  let deepestAt = -1;
  for (let i = 0; i < depth.length; i++) {
    if (depth[i]! > deepest) {
      deepest = depth[i]!;
      deepestAt = i;
    }
  }
  if (deepest < 6) return null;

  // Pixels by depth, deepest first (counting sort).
  const counts = new Int32Array(deepest + 2);
  for (let i = 0; i < depth.length; i++) if (depth[i]! > 0) counts[depth[i]!]!++;
  const start = new Int32Array(deepest + 2);
  for (let d = deepest - 1; d >= 1; d--) start[d] = start[d + 1]! + counts[d + 1]!;
  const order = new Int32Array(start[1]! + counts[1]!);
  const fill = start.slice();
  for (let i = 0; i < depth.length; i++) if (depth[i]! > 0) order[fill[depth[i]!]!++] = i;

  const parent = new Int32Array(depth.length).fill(-1);
  const necked = floodByDepth(order, depth, width, height, MIN_LOBE_DEPTH * deepest, parent);
  const find = (i: number) => findRoot(parent, i);
  const main = find(deepestAt);
  const lobes: Lobe[] = [{ at: deepestAt, depth: deepest }, ...necked.filter((l) => find(l.at) === main)];
  if (lobes.length < 2) return null;
  return splitAtLobes(region, width, height, lobes);
}

/**
 * The region split between its lobes (the rare case, a function of its own so that splitTouching's optimised
 * code does not stop at it): each pixel goes to the lobe of the smallest power distance; null when a part is
 * elongated or the parts tile the region's own hull (one slice, not several).
 */
function splitAtLobes(region: Uint8Array, width: number, height: number, lobes: Lobe[]): Uint8Array[] | null {
  // Power diagram: R is about depth x sqrt(2) for a disc measured in chessboard steps.
  const parts = lobes.map(() => new Uint8Array(region.length));
  const areas = new Float64Array(lobes.length);
  const lx = lobes.map((l) => l.at % width);
  const ly = lobes.map((l) => Math.floor(l.at / width));
  for (let i = 0; i < region.length; i++) {
    if (!region[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    let best = 0;
    let bestScore = Infinity;
    for (let k = 0; k < lobes.length; k++) {
      const score = (x - lx[k]!) ** 2 + (y - ly[k]!) ** 2 - 2 * lobes[k]!.depth ** 2;
      if (score < bestScore) {
        bestScore = score;
        best = k;
      }
    }
    parts[best]![i] = 1;
    areas[best]!++;
  }
  for (let k = 0; k < lobes.length; k++) {
    if (areas[k]! > MAX_PART_ELONGATION * Math.PI * lobes[k]!.depth ** 2) return null;
  }
  const hullArea = (m: Uint8Array) => spansArea(planeHullSpans(m, 1, width, 0, 0, width - 1, height - 1));
  let partsHull = 0;
  for (const part of parts) partsHull += hullArea(part);
  if (hullArea(region) < MIN_HULL_EXCESS * partsHull) return null;
  return parts;
}
