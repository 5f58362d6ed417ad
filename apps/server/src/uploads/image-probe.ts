import fsp from 'node:fs/promises';
import type { Metadata, SharpOptions } from 'sharp';
import type { ImageFormat } from '../names/image-formats.js';
import { createLimit } from '../util/limiter.js';
import { UPLOAD_LIMITS } from './upload-limits.js';

export interface ProbedImage {
  format: ImageFormat;
  /** as displayed, i.e. after the EXIF orientation */
  width: number;
  height: number;
  /** temp file of the 400 px WebP thumbnail (EXIF orientation applied): on disk, so a 10 000-entry ZIP
   * does not hold 10 000 thumbnails in memory */
  thumbnailPath: string;
}

export class NotAnImageError extends Error {}

type Sharp = (typeof import('sharp'))['default'];
let sharpLoaded: Promise<Sharp> | null = null;

/** sharp (libvips) is loaded on the first upload, not while the server starts. */
function loadSharp(): Promise<Sharp> {
  return (sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    // Each image is decoded once; libvips' operation cache would only hold memory we never reuse.
    sharp.cache(false);
    return sharp;
  }));
}
const limit = createLimit(UPLOAD_LIMITS.decodeConcurrency);

/**
 * Decodes a staged file once: the header for its size, then every pixel on the way to the thumbnail.
 * Shrink-on-load keeps that cheap (a JPEG decodes at 1/8 scale) while the whole compressed stream is
 * still read, so a truncated or corrupt file fails here (`failOn: 'truncated'`).
 */
export function probeImage(file: string, sniffed: ImageFormat, thumbnailPath: string): Promise<ProbedImage> {
  return limit(async () => {
    const sharp = await loadSharp();
    const options: SharpOptions = {
      failOn: 'truncated',
      limitInputPixels: UPLOAD_LIMITS.maxInputPixels,
      sequentialRead: true,
      pages: 1,
    };
    let meta: Metadata;
    try {
      meta = await sharp(file, options).metadata();
    } catch (err) {
      throw new NotAnImageError(`The file could not be read as ${sniffed.toUpperCase()}: ${reason(err)}`);
    }
    if (meta.format !== sniffed && !(sniffed === 'tiff' && meta.format === 'tiff')) {
      throw new NotAnImageError(`The file is not a complete ${sniffed.toUpperCase()} image`);
    }
    if (!meta.width || !meta.height) throw new NotAnImageError('The image has no size');
    const size = UPLOAD_LIMITS.thumbnailSize;
    try {
      await sharp(file, options)
        .rotate()
        .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75, effort: 2 })
        .toFile(thumbnailPath);
    } catch (err) {
      await fsp.rm(thumbnailPath, { force: true });
      throw new NotAnImageError(`The image does not decode completely: ${reason(err)}`);
    }
    const swapped = (meta.orientation ?? 1) >= 5;
    return {
      format: sniffed,
      width: swapped ? meta.height : meta.width,
      height: swapped ? meta.width : meta.height,
      thumbnailPath,
    };
  });
}

function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]?.slice(0, 200) ?? 'unknown error';
}
