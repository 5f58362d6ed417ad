/** CIELAB (D65) planes of an image: L 0-100, a/b roughly -128..127. */
export interface LabPlanes {
  width: number;
  height: number;
  L: Float32Array;
  a: Float32Array;
  b: Float32Array;
}

const SRGB_TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

function f(t: number): number {
  return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
}

function labOf(r8: number, g8: number, b8: number): [number, number, number] {
  const r = SRGB_TO_LINEAR[r8]!;
  const g = SRGB_TO_LINEAR[g8]!;
  const bl = SRGB_TO_LINEAR[b8]!;
  const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047);
  const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * bl);
  const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/**
 * Lab of every colour quantised to 6 bits a channel (262 144 entries, built once a thread): a lookup instead
 * of three cube roots a pixel. The quantisation error (< 2 CIELAB units) is below the photos' own noise.
 */
let LUT: Float32Array | null = null;
function lut(): Float32Array {
  if (LUT) return LUT;
  LUT = new Float32Array(64 * 64 * 64 * 3);
  for (let r = 0; r < 64; r++)
    for (let g = 0; g < 64; g++)
      for (let b = 0; b < 64; b++) {
        const [l, a, bb] = labOf((r << 2) | 2, (g << 2) | 2, (b << 2) | 2);
        const o = ((r << 12) | (g << 6) | b) * 3;
        LUT[o] = l;
        LUT[o + 1] = a;
        LUT[o + 2] = bb;
      }
  return LUT;
}

export function rgbToLab(rgb: Uint8Array, width: number, height: number): LabPlanes {
  const n = width * height;
  const L = new Float32Array(n);
  const A = new Float32Array(n);
  const B = new Float32Array(n);
  const table = lut();
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const o = (((rgb[j]! >> 2) << 12) | ((rgb[j + 1]! >> 2) << 6) | (rgb[j + 2]! >> 2)) * 3;
    L[i] = table[o]!;
    A[i] = table[o + 1]!;
    B[i] = table[o + 2]!;
  }
  return { width, height, L, a: A, b: B };
}

/** The row pass's output, kept between calls (each worker thread has its own) rather than garbage a call. */
let blurRows = new Float32Array(0);

/** Separable box blur (radius r, windows clipped at the edges), both passes reading memory in order. */
export function boxBlur(src: Float32Array, width: number, height: number, r: number): Float32Array {
  if (r <= 0) return src;
  if (blurRows.length < src.length) blurRows = new Float32Array(src.length);
  const tmp = blurRows;
  // window width at each column (clipped at the edges), the same on every row
  const spans = new Float64Array(width);
  for (let x = 0; x < width; x++) spans[x] = Math.min(width, x + r + 1) - Math.max(0, x - r);
  // [lo, hi): the columns whose window lies whole inside the row, run without the edge tests
  const lo = Math.min(width, r + 1);
  const hi = Math.max(lo, width - r);
  // the window's width there (spans[x] for those x)
  const full = 2 * r + 1;
  for (let y = 0; y < height; y++) {
    const o = y * width;
    let sum = 0;
    for (let x = 0; x < Math.min(r, width); x++) sum += src[o + x]!;
    for (let x = 0; x < lo; x++) {
      if (x + r < width) sum += src[o + x + r]!;
      if (x - r - 1 >= 0) sum -= src[o + x - r - 1]!;
      tmp[o + x] = sum / spans[x]!;
    }
    for (let x = lo; x < hi; x++) {
      sum += src[o + x + r]!;
      sum -= src[o + x - r - 1]!;
      tmp[o + x] = sum / full;
    }
    for (let x = hi; x < width; x++) {
      if (x + r < width) sum += src[o + x + r]!;
      if (x - r - 1 >= 0) sum -= src[o + x - r - 1]!;
      tmp[o + x] = sum / spans[x]!;
    }
  }
  const out = new Float32Array(src.length);
  const sums = new Float64Array(width);
  for (let y = 0; y < Math.min(r, height); y++) for (let x = 0; x < width; x++) sums[x]! += tmp[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const span = Math.min(height, y + r + 1) - Math.max(0, y - r);
    const o = y * width;
    if (y + r < height && y - r - 1 >= 0) {
      // rows whose window lies whole inside the image: add the row entering, take the one leaving, in one sweep
      const enter = (y + r) * width;
      const leave = (y - r - 1) * width;
      for (let x = 0; x < width; x++) {
        let v = sums[x]! + tmp[enter + x]!;
        v -= tmp[leave + x]!;
        sums[x] = v;
        out[o + x] = v / span;
      }
      continue;
    }
    if (y + r < height) for (let x = 0, e = (y + r) * width; x < width; x++) sums[x]! += tmp[e + x]!;
    if (y - r - 1 >= 0) for (let x = 0, l = (y - r - 1) * width; x < width; x++) sums[x]! -= tmp[l + x]!;
    for (let x = 0; x < width; x++) out[o + x] = sums[x]! / span;
  }
  return out;
}
