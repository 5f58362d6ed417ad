import sharp from 'sharp';

/** A hand-drawn test photo: one cream slice on a blue card, with lesions exactly where a test wants them. */
export interface DrawnSlice {
  size: number;
  /** square dark specks: centre and side in pixels */
  specks?: { x: number; y: number; side: number }[];
  /** straight dark streaks of the given width */
  streaks?: { x0: number; y0: number; x1: number; y1: number; width: number }[];
  /** round lesions with a soft edge (opacity falls from 1 to 0 over `soft` px) */
  blobs?: { x: number; y: number; r: number; soft: number }[];
}

const FLESH = [238, 228, 196];
const LESION = [62, 60, 78];
const CARD = [40, 80, 160];

/** Lesion opacity 0-1 at a pixel centre. */
function lesionAt(d: DrawnSlice, x: number, y: number): number {
  let a = 0;
  for (const s of d.specks ?? []) if (Math.abs(x - s.x) < s.side / 2 && Math.abs(y - s.y) < s.side / 2) a = 1;
  for (const s of d.streaks ?? []) {
    const vx = s.x1 - s.x0;
    const vy = s.y1 - s.y0;
    const t = Math.max(0, Math.min(1, ((x - s.x0) * vx + (y - s.y0) * vy) / (vx * vx + vy * vy)));
    if (Math.hypot(x - s.x0 - t * vx, y - s.y0 - t * vy) < s.width / 2) a = 1;
  }
  for (const b of d.blobs ?? []) {
    const r = Math.hypot(x - b.x, y - b.y);
    a = Math.max(a, Math.min(1, Math.max(0, (b.r + b.soft / 2 - r) / b.soft)));
  }
  return a;
}

export function drawSliceRgb(d: DrawnSlice): Uint8Array {
  const { size } = d;
  const rgb = new Uint8Array(size * size * 3);
  const c = size / 2;
  const R = size * 0.4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const inside = Math.hypot(px - c, py - c) <= R;
      const a = inside ? lesionAt(d, px, py) : 0;
      const o = (y * size + x) * 3;
      for (let k = 0; k < 3; k++) rgb[o + k] = inside ? FLESH[k]! * (1 - a) + LESION[k]! * a : CARD[k]!;
    }
  }
  return rgb;
}

export function rgbToPng(rgb: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export function drawSlicePng(d: DrawnSlice): Promise<Buffer> {
  return rgbToPng(drawSliceRgb(d), d.size, d.size);
}

/** Mirrors the left half onto the right and the top half onto the bottom: an image equal to both its flips. */
export function symmetrise(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const out = rgb.slice();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = x < width / 2 ? x : width - 1 - x;
      const sy = y < height / 2 ? y : height - 1 - y;
      const s = (sy * width + sx) * 3;
      const d = (y * width + x) * 3;
      out[d] = rgb[s]!;
      out[d + 1] = rgb[s + 1]!;
      out[d + 2] = rgb[s + 2]!;
    }
  }
  return out;
}
