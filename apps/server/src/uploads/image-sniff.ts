import type { ImageFormat } from '../names/image-formats.js';

/**
 * The image format from the first bytes of a file: the only formats we accept, recognised by
 * their signatures (the name and the client's Content-Type are never trusted). SVG, BMP, HEIC,
 * text and everything else give null.
 */
export function sniffFormat(head: Buffer): ImageFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'gif';
  if (head.length >= 4) {
    const sig = head.toString('latin1', 0, 4);
    // Classic TIFF (II*\0 / MM\0*) and BigTIFF (II+\0 / MM\0+).
    if (sig === 'II*\0' || sig === 'MM\0*' || sig === 'II+\0' || sig === 'MM\0+') return 'tiff';
  }
  return null;
}

export const EXTENSION_OF: Record<ImageFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  tiff: 'tif',
  gif: 'gif',
};
