import { components, fillHoles, open } from '../imaging/mask-ops.js';
import type { Rect } from '../imaging/raster.js';
import { cropPlane } from '../imaging/raster.js';

/** A kept specimen: its crop rectangle in working pixels and its own pixels inside that crop. */
export interface Specimen {
  rect: Rect;
  mask: Uint8Array;
  area: number;
}

export const MAX_CUTS = 3;
/** Specimens far smaller than the largest are labels, crumbs or shadows, not slices. */
const MIN_SHARE_OF_LARGEST = 0.1;

/**
 * First segmentation: specimen probability -> mask (holes filled, specks opened away) -> connected specimens,
 * those under `minSize` working pixels dropped, the three largest kept in reading order (rows top to bottom,
 * left to right within a row), each cropped with a small margin.
 */
export function findSpecimens(prob: Float32Array, width: number, height: number, minSize: number): Specimen[] {
  let mask: Uint8Array = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = prob[i]! >= 0.5 ? 1 : 0;
  mask = fillHoles(mask, width, height);
  const k = Math.max(3, (Math.round(Math.max(width, height) / 200) | 1));
  mask = open(mask, width, height, k, 1);
  const c = components(mask, width, height, 4);
  let largest = 0;
  for (let id = 1; id <= c.count; id++) largest = Math.max(largest, c.areas[id]!);
  const floor = Math.max(minSize, MIN_SHARE_OF_LARGEST * largest);
  const ids: number[] = [];
  for (let id = 1; id <= c.count; id++) if (c.areas[id]! >= floor) ids.push(id);
  ids.sort((p, q) => c.areas[q]! - c.areas[p]!);
  const kept = readingOrder(ids.slice(0, MAX_CUTS), c);
  return kept.map((id) => {
    const bw = c.maxX[id]! - c.minX[id]! + 1;
    const bh = c.maxY[id]! - c.minY[id]! + 1;
    const m = Math.round(0.03 * Math.max(bw, bh)) + 2;
    const rect: Rect = {
      x0: Math.max(0, c.minX[id]! - m),
      y0: Math.max(0, c.minY[id]! - m),
      x1: Math.min(width, c.maxX[id]! + 1 + m),
      y1: Math.min(height, c.maxY[id]! + 1 + m),
    };
    const labels = cropPlane(c.labels, width, rect);
    const own = new Uint8Array(labels.length);
    for (let i = 0; i < labels.length; i++) own[i] = labels[i] === id ? 1 : 0;
    return { rect, mask: own, area: c.areas[id]! };
  });
}

function readingOrder(ids: number[], c: ReturnType<typeof components>): number[] {
  const cy = (id: number) => c.sumY[id]! / c.areas[id]!;
  const cx = (id: number) => c.sumX[id]! / c.areas[id]!;
  const byY = [...ids].sort((p, q) => cy(p) - cy(q));
  const rows: number[][] = [];
  for (const id of byY) {
    const row = rows[rows.length - 1];
    const anchor = row?.[0];
    // Same row when the centre lies within the vertical extent of the row's first specimen.
    if (row && anchor !== undefined && cy(id) <= c.maxY[anchor]!) row.push(id);
    else rows.push([id]);
  }
  return rows.flatMap((row) => row.sort((p, q) => cx(p) - cx(q)));
}
