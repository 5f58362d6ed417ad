/**
 * Pure operations on a label grid (one byte per pixel, row-major, values 0-4): brush stamps along a stroke, the
 * connected region of a proposal under a click, class counts. No DOM, so they are unit-tested directly.
 */
export interface Grid {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A rectangle of the grid (x, y inclusive; width/height in pixels). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function unionRect(a: Rect | null, b: Rect | null): Rect | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/**
 * Sets every pixel within `radius` of (cx, cy) to `value` (with `only`, just the pixels of that class: an eraser
 * limited to one class); returns the rectangle touched (null when outside).
 */
export function stampDisc(
  grid: Grid,
  cx: number,
  cy: number,
  radius: number,
  value: number,
  only?: number,
): Rect | null {
  const r = Math.max(0.5, radius);
  const x0 = Math.max(0, Math.floor(cx - r));
  const x1 = Math.min(grid.width - 1, Math.ceil(cx + r));
  const y0 = Math.max(0, Math.floor(cy - r));
  const y1 = Math.min(grid.height - 1, Math.ceil(cy + r));
  if (x0 > x1 || y0 > y1) return null;
  const r2 = r * r;
  for (let y = y0; y <= y1; y++) {
    const dy = y + 0.5 - cy;
    const row = y * grid.width;
    for (let x = x0; x <= x1; x++) {
      const dx = x + 0.5 - cx;
      if (dx * dx + dy * dy <= r2 && (only === undefined || grid.data[row + x] === only)) grid.data[row + x] = value;
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** Stamps discs along the segment (x0, y0) -> (x1, y1) closely enough that the stroke has no gaps. */
export function stampLine(
  grid: Grid,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  radius: number,
  value: number,
  only?: number,
): Rect | null {
  const length = Math.hypot(x1 - x0, y1 - y0);
  const steps = Math.max(1, Math.ceil(length / Math.max(0.5, radius * 0.4)));
  let rect: Rect | null = null;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    rect = unionRect(rect, stampDisc(grid, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, radius, value, only));
  }
  return rect;
}

/**
 * "Take proposal": the 4-connected region of the proposal's class under (x, y) is copied into the labels, on the
 * pixels still unlabelled (what the researcher painted stays). Returns the rectangle changed, or null when the
 * proposal has nothing there or nothing changed.
 */
export function takeProposalRegion(labels: Grid, proposal: Grid, x: number, y: number): Rect | null {
  const { width, height } = labels;
  if (proposal.width !== width || proposal.height !== height) return null;
  const px = Math.floor(x);
  const py = Math.floor(y);
  if (px < 0 || py < 0 || px >= width || py >= height) return null;
  const start = py * width + px;
  const value = proposal.data[start] ?? 0;
  if (value === 0) return null;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let top = 0;
  stack[top++] = start;
  seen[start] = 1;
  let minX = px;
  let maxX = px;
  let minY = py;
  let maxY = py;
  let changed = false;
  while (top > 0) {
    const i = stack[--top]!;
    if (labels.data[i] === 0) {
      labels.data[i] = value;
      changed = true;
    }
    const ix = i % width;
    const iy = (i - ix) / width;
    if (ix < minX) minX = ix;
    if (ix > maxX) maxX = ix;
    if (iy < minY) minY = iy;
    if (iy > maxY) maxY = iy;
    if (ix > 0 && !seen[i - 1] && proposal.data[i - 1] === value) {
      seen[i - 1] = 1;
      stack[top++] = i - 1;
    }
    if (ix < width - 1 && !seen[i + 1] && proposal.data[i + 1] === value) {
      seen[i + 1] = 1;
      stack[top++] = i + 1;
    }
    if (iy > 0 && !seen[i - width] && proposal.data[i - width] === value) {
      seen[i - width] = 1;
      stack[top++] = i - width;
    }
    if (iy < height - 1 && !seen[i + width] && proposal.data[i + width] === value) {
      seen[i + width] = 1;
      stack[top++] = i + width;
    }
  }
  return changed ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : null;
}

/** Pixels per value 0-4 (values above 4 are not counted). */
export function countClasses(data: Uint8Array): number[] {
  const counts = [0, 0, 0, 0, 0];
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v <= 4) counts[v]!++;
  }
  return counts;
}

/** The rectangle's pixels, copied out (for undo). */
export function readRect(grid: Grid, rect: Rect): Uint8Array {
  const out = new Uint8Array(rect.width * rect.height);
  for (let y = 0; y < rect.height; y++) {
    const from = (rect.y + y) * grid.width + rect.x;
    out.set(grid.data.subarray(from, from + rect.width), y * rect.width);
  }
  return out;
}

/** Writes a copy made by readRect back. */
export function writeRect(grid: Grid, rect: Rect, pixels: Uint8Array): void {
  for (let y = 0; y < rect.height; y++) {
    grid.data.set(pixels.subarray(y * rect.width, (y + 1) * rect.width), (rect.y + y) * grid.width + rect.x);
  }
}
