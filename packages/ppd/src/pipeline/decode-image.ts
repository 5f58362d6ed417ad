import sharp from 'sharp';
import type { RgbImage } from '../imaging/raster.js';

/** Longest side of the working image: the pixel work runs here; boxes are scaled back to the original. */
export const WORKING_SIDE = 1024;
/** Larger inputs are refused rather than risk the worker's memory (a 20 000 x 20 000 photo still passes). */
const MAX_INPUT_PIXELS = 1_000_000_000;

export interface DecodedImage {
  image: RgbImage;
  /** original size after EXIF orientation */
  originalWidth: number;
  originalHeight: number;
}

export type DecodeOutcome = { ok: true; decoded: DecodedImage } | { ok: false; code: string; message: string };

/**
 * Decodes any sharp-readable image to 8-bit sRGB at working size: EXIF orientation applied, alpha flattened
 * onto black, greyscale/CMYK/16-bit converted, JPEG shrink-on-load so a 4000 x 3000 photo never decodes in full.
 */
export async function decodeImage(input: Uint8Array | string, maxSide = WORKING_SIDE): Promise<DecodeOutcome> {
  const options = { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true } as const;
  try {
    const meta = await sharp(input, options).metadata();
    const originalWidth = meta.autoOrient?.width ?? meta.width;
    const originalHeight = meta.autoOrient?.height ?? meta.height;
    if (!originalWidth || !originalHeight)
      return { ok: false, code: 'decode_failed', message: 'the image has no size' };
    const { data, info } = await sharp(input, options)
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: true })
      .flatten({ background: '#000000' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const rgb = toRgb(data, info.width, info.height, info.channels);
    return {
      ok: true,
      decoded: { image: { width: info.width, height: info.height, data: rgb }, originalWidth, originalHeight },
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) return { ok: false, code: 'image_too_large', message };
    if (/missing|no such file|ENOENT/i.test(message)) return { ok: false, code: 'file_not_found', message };
    return { ok: false, code: 'decode_failed', message };
  }
}

/** sharp normally hands back 3 channels here; grey (1/2) or stray alpha (4) are expanded/dropped just in case. */
function toRgb(data: Buffer, width: number, height: number, channels: number): Uint8Array {
  const n = width * height;
  if (channels === 3) return new Uint8Array(data.buffer, data.byteOffset, n * 3);
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const s = i * channels;
    if (channels < 3) {
      out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = data[s]!;
    } else {
      out[i * 3] = data[s]!;
      out[i * 3 + 1] = data[s + 1]!;
      out[i * 3 + 2] = data[s + 2]!;
    }
  }
  return out;
}
