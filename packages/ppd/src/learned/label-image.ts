import sharp, { type Metadata } from 'sharp';
import { LABEL, type LabelImage, type LabelledPixelCounts } from './lab-model-api.js';

/**
 * Label images as the server, the CLI and training read them (api.md "Labels and lab models"): a PNG, 8-bit grey
 * or palette (the palette index is the value), RGB(A) read as its red channel (what a browser canvas writes);
 * values 0-4; scaled to the photo with nearest neighbour (values are classes: never blended).
 */

/** Largest label image decoded (a guard against decompression bombs; a 60 MP photo's label fits). */
export const LABEL_MAX_PIXELS = 64_000_000;

export type LabelDecode =
  { ok: true; labels: LabelImage; counts: LabelledPixelCounts } | { ok: false; problem: string };

const MAX_VALUE = LABEL.excluded;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Labelled pixels per class (0, unlabelled, is not counted). */
export function countLabels(values: Uint8Array): LabelledPixelCounts {
  const n = [0, 0, 0, 0, 0];
  for (let i = 0; i < values.length; i++) n[values[i]!] = (n[values[i]!] ?? 0) + 1;
  return { background: n[1] ?? 0, healthy: n[2] ?? 0, lesion: n[3] ?? 0, excluded: n[4] ?? 0 };
}

/** Nearest-neighbour scaling (each output pixel takes the value under its centre). Same size: the input itself. */
/** PPD of labels: labelled lesion / labelled tissue (healthy + lesion) x 10; 0 when no tissue is labelled. */
export function labelsPpd(c: LabelledPixelCounts): number {
  return c.healthy + c.lesion > 0 ? (10 * c.lesion) / (c.healthy + c.lesion) : 0;
}

export function scaleLabels(labels: LabelImage, width: number, height: number): LabelImage {
  if (labels.width === width && labels.height === height) return labels;
  const out = new Uint8Array(width * height);
  const xs = new Uint32Array(width);
  for (let x = 0; x < width; x++) xs[x] = Math.min(labels.width - 1, Math.floor(((x + 0.5) * labels.width) / width));
  for (let y = 0; y < height; y++) {
    const src = Math.min(labels.height - 1, Math.floor(((y + 0.5) * labels.height) / height)) * labels.width;
    const row = y * width;
    for (let x = 0; x < width; x++) out[row + x] = labels.values[src + xs[x]!]!;
  }
  return { width, height, values: out };
}

/** The colours of a palette PNG's PLTE chunk, as 0xRRGGBB, in index order (null when there is none). */
function paletteOf(png: Uint8Array): number[] | null {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 8 <= view.length;) {
    const length = view.readUInt32BE(at);
    const type = view.toString('latin1', at + 4, at + 8);
    if (type === 'PLTE') {
      const colours: number[] = [];
      for (let i = 0; i + 2 < length && at + 8 + i + 2 < view.length; i += 3)
        colours.push((view[at + 8 + i]! << 16) | (view[at + 9 + i]! << 8) | view[at + 10 + i]!);
      return colours;
    }
    if (type === 'IDAT' || type === 'IEND') return null;
    at += 12 + length;
  }
  return null;
}

/**
 * A palette image's pixels back to their indices: libvips expands a palette to its colours, so each colour is
 * looked up in the PLTE chunk (of two indices with one colour, the lower: both read the same to a viewer).
 */
async function paletteIndices(png: Uint8Array, palette: number[], pixels: number): Promise<Uint8Array | string> {
  const index = new Map<number, number>();
  palette.forEach((c, i) => {
    if (!index.has(c)) index.set(c, i);
  });
  const { data, info } = await sharp(png, { limitInputPixels: LABEL_MAX_PIXELS })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 || data.length !== pixels * 3) return 'the palette image could not be read';
  const out = new Uint8Array(pixels);
  for (let p = 0, i = 0; p < pixels; p++, i += 3) {
    const v = index.get((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    if (v === undefined) return 'a pixel has a colour that is not in the palette';
    out[p] = v;
  }
  return out;
}

/**
 * Decodes and checks a label PNG; with `size`, scales it to that size (the photo as shown). Never throws for bad
 * input: `{ ok: false, problem }` says what is wrong (not a PNG, not 8-bit, a value above 4, nothing labelled).
 */
export async function readLabelPng(bytes: Uint8Array, size?: { width: number; height: number }): Promise<LabelDecode> {
  if (bytes.byteLength < PNG_SIGNATURE.length || !PNG_SIGNATURE.equals(Buffer.from(bytes.subarray(0, 8))))
    return { ok: false, problem: 'the label image is not a PNG' };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: LABEL_MAX_PIXELS }).metadata();
  } catch {
    return { ok: false, problem: 'the label PNG cannot be read' };
  }
  const { width, height } = meta;
  if (meta.format !== 'png' || !width || !height) return { ok: false, problem: 'the label image is not a PNG' };
  if (width * height > LABEL_MAX_PIXELS)
    return { ok: false, problem: `the label image is larger than ${LABEL_MAX_PIXELS / 1e6} megapixels` };
  const pixels = width * height;
  let values: Uint8Array | string;
  try {
    if (meta.isPalette) {
      const palette = paletteOf(bytes);
      values = palette ? await paletteIndices(bytes, palette, pixels) : 'the palette PNG has no palette';
    } else if (meta.depth !== 'uchar' || (meta.bitsPerSample !== undefined && meta.bitsPerSample !== 8)) {
      values = 'the label PNG must be 8 bits per channel (grey, palette or RGB)';
    } else {
      // Grey (with or without alpha): its grey channel; RGB(A): its red channel.
      const raw = await sharp(bytes, { limitInputPixels: LABEL_MAX_PIXELS }).extractChannel(0).raw().toBuffer();
      values = raw.length === pixels ? new Uint8Array(raw.buffer, raw.byteOffset, raw.length) : 'unreadable pixels';
    }
  } catch {
    return { ok: false, problem: 'the label PNG cannot be decoded (truncated or corrupt)' };
  }
  if (typeof values === 'string') return { ok: false, problem: values };
  for (let i = 0; i < values.length; i++) {
    if (values[i]! > MAX_VALUE)
      return { ok: false, problem: `a pixel has the value ${values[i]} (label values are 0 to ${MAX_VALUE})` };
  }
  let labels: LabelImage = { width, height, values };
  if (size) labels = scaleLabels(labels, size.width, size.height);
  const counts = countLabels(labels.values);
  if (counts.background + counts.healthy + counts.lesion + counts.excluded === 0)
    return { ok: false, problem: 'nothing is labelled (every pixel is 0)' };
  return { ok: true, labels, counts };
}

/** An 8-bit grey PNG of label values (lossless: the values are classes, not shades). */
export function encodeLabelImage(labels: LabelImage): Promise<Buffer> {
  // Without toColourspace('b-w') libvips writes one-band raw input as RGB (three times the bytes).
  return sharp(labels.values, { raw: { width: labels.width, height: labels.height, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 6 })
    .toBuffer();
}
