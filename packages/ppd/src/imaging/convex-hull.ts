/**
 * Convex hulls of pixel regions, kept as one horizontal span per row: cheap to rasterise, compare and merge.
 * The hull is computed from each row's leftmost and rightmost pixel (the only candidates for hull vertices).
 */
export interface RowSpans {
  y0: number;
  /** per row from y0: [xmin, xmax] inclusive, or xmin > xmax when the row is empty */
  xmin: Int32Array;
  xmax: Int32Array;
}

type Pt = [number, number];

const cross = (o: Pt, a: Pt, b: Pt) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Andrew's monotone chain on the row extremes; points as pixel-corner coordinates so thin rows keep width. */
function hullOf(points: Pt[]): Pt[] {
  const pts = points.slice().sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (pts.length < 3) return pts;
  const lower: Pt[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Pt[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * Hull spans of the pixels equal to `value` in a plane (a mask, or component labels), within the bounding box
 * [x0..x1] x [y0..y1]. Callers with another test scan their own row extremes for `hullOfRows` (a predicate
 * called a pixel, different from caller to caller, was a call V8 could not inline).
 */
export function planeHullSpans(
  plane: Uint8Array | Int32Array,
  value: number,
  width: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): RowSpans {
  const rows = rowExtremes(y0, y1);
  for (let y = y0; y <= y1; y++) {
    const o = y * width;
    let lo = -1;
    let hi = -1;
    for (let x = x0; x <= x1; x++) {
      if (plane[o + x] === value) {
        if (lo < 0) lo = x;
        hi = x;
      }
    }
    rows.lo[y - y0] = lo;
    rows.hi[y - y0] = hi;
  }
  return hullOfRows(rows);
}

/** Each row's leftmost and rightmost pixel of a region (-1 for an empty row), rows y0..y1. */
export interface RowExtremes {
  y0: number;
  lo: Int32Array;
  hi: Int32Array;
}

/** Row extremes for rows y0..y1, every row empty so far. */
export function rowExtremes(y0: number, y1: number): RowExtremes {
  const lo = new Int32Array(y1 - y0 + 1).fill(-1);
  const hi = new Int32Array(y1 - y0 + 1).fill(-1);
  return { y0, lo, hi };
}

/** The hull spans of a region given by its row extremes. */
export function hullOfRows(rows: RowExtremes): RowSpans {
  const { y0, lo: los, hi: his } = rows;
  const points: Pt[] = [];
  for (let r = 0; r < los.length; r++) {
    const lo = los[r]!;
    if (lo >= 0) {
      const y = y0 + r;
      points.push([lo + 0.5, y + 0.5], [his[r]! + 0.5, y + 0.5]);
    }
  }
  const hull = hullOf(points);
  const rowCount = los.length;
  const xmin = new Int32Array(rowCount).fill(1 << 30);
  const xmax = new Int32Array(rowCount).fill(-(1 << 30));
  // Rasterise: each hull edge sets the span ends of the rows it crosses (pixel centres).
  const n = hull.length;
  if (n === 0) return { y0, xmin, xmax };
  for (let k = 0; k < n; k++) {
    const a = hull[k]!;
    const b = hull[(k + 1) % n]!;
    const ya = Math.min(a[1], b[1]);
    const yb = Math.max(a[1], b[1]);
    for (let y = Math.ceil(ya - 0.5); y <= Math.floor(yb - 0.5); y++) {
      const r = y - y0;
      if (r < 0 || r >= rowCount) continue;
      const cy = y + 0.5;
      const x = a[1] === b[1] ? Math.min(a[0], b[0]) : a[0] + ((cy - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
      const xEnd = a[1] === b[1] ? Math.max(a[0], b[0]) : x;
      const lo = Math.round(x - 0.5);
      const hi = Math.round(xEnd - 0.5);
      if (lo < xmin[r]!) xmin[r] = lo;
      if (hi > xmax[r]!) xmax[r] = hi;
    }
  }
  for (const p of points) {
    const r = Math.floor(p[1]) - y0;
    const x = Math.floor(p[0]);
    if (x < xmin[r]!) xmin[r] = x;
    if (x > xmax[r]!) xmax[r] = x;
  }
  return { y0, xmin, xmax };
}

export function spansArea(s: RowSpans): number {
  let a = 0;
  for (let r = 0; r < s.xmin.length; r++) if (s.xmax[r]! >= s.xmin[r]!) a += s.xmax[r]! - s.xmin[r]! + 1;
  return a;
}

/** Whether two hulls come within `gap` pixels of each other (rows and columns). */
export function spansNear(a: RowSpans, b: RowSpans, gap: number): boolean {
  for (let r = 0; r < a.xmin.length; r++) {
    if (a.xmax[r]! < a.xmin[r]!) continue;
    const y = a.y0 + r;
    for (let yy = y - gap; yy <= y + gap; yy++) {
      const rb = yy - b.y0;
      if (rb < 0 || rb >= b.xmin.length || b.xmax[rb]! < b.xmin[rb]!) continue;
      if (a.xmin[r]! - gap <= b.xmax[rb]! && b.xmin[rb]! - gap <= a.xmax[r]!) return true;
    }
  }
  return false;
}
