/** An 8-bit RGB image held as a flat typed array (row-major, 3 bytes a pixel). */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A rectangle in pixels of some image; `x1`/`y1` exclusive. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function cropRgb(img: RgbImage, r: Rect): RgbImage {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const src = ((r.y0 + y) * img.width + r.x0) * 3;
    out.set(img.data.subarray(src, src + w * 3), y * w * 3);
  }
  return { width: w, height: h, data: out };
}

export function cropPlane<T extends Uint8Array | Float32Array | Int32Array>(plane: T, width: number, r: Rect): T {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  const out = new (plane.constructor as new (n: number) => T)(w * h);
  for (let y = 0; y < h; y++) {
    const src = (r.y0 + y) * width + r.x0;
    out.set(plane.subarray(src, src + w) as unknown as ArrayLike<number>, y * w);
  }
  return out;
}

export type Flip = 'none' | 'h' | 'v';

/** Mirrors an interleaved plane of `channels` values a pixel; flipping twice gives the input back. */
export function flip<T extends Uint8Array | Float32Array>(
  src: T,
  width: number,
  height: number,
  channels: number,
  how: Flip,
): T {
  if (how === 'none') return src;
  const out = new (src.constructor as new (n: number) => T)(src.length);
  for (let y = 0; y < height; y++) {
    const sy = how === 'v' ? height - 1 - y : y;
    for (let x = 0; x < width; x++) {
      const sx = how === 'h' ? width - 1 - x : x;
      const s = (sy * width + sx) * channels;
      const d = (y * width + x) * channels;
      for (let c = 0; c < channels; c++) out[d + c] = src[s + c]!;
    }
  }
  return out;
}

/** Halves an image by 2 x 2 averaging (odd last row/column dropped). */
export function halve(img: RgbImage): RgbImage {
  const w = img.width >> 1;
  const h = img.height >> 1;
  const out = new Uint8Array(w * h * 3);
  const src = img.data;
  const stride = img.width * 3;
  for (let y = 0; y < h; y++) {
    let s = 2 * y * stride;
    let d = y * w * 3;
    for (let x = 0; x < w; x++, s += 6, d += 3) {
      out[d] = (src[s]! + src[s + 3]! + src[s + stride]! + src[s + stride + 3]! + 2) >> 2;
      out[d + 1] = (src[s + 1]! + src[s + 4]! + src[s + stride + 1]! + src[s + stride + 4]! + 2) >> 2;
      out[d + 2] = (src[s + 2]! + src[s + 5]! + src[s + stride + 2]! + src[s + stride + 5]! + 2) >> 2;
    }
  }
  return { width: w, height: h, data: out };
}
