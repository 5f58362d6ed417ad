import sharp from 'sharp';
import type { Rect } from '../imaging/raster.js';
import { LABEL } from './lab-model-api.js';

/** One scored specimen as the pipeline holds it: its crop rectangle and crop-sized masks. */
export interface ScoredRegion {
  rect: Rect;
  /** the specimen's own pixels in its crop */
  mask: Uint8Array;
  /** the scored surface (mask less what the model took out: peel, bark) */
  surface: Uint8Array;
  lesion: Uint8Array;
}

/**
 * The engine's per-pixel classes of the whole working image as label values (`LABEL`): what the label painter
 * offers as "take the engine's proposal for a region". Everything outside the specimens is background.
 */
export function proposalLabels(width: number, height: number, regions: ScoredRegion[]): Uint8Array {
  const out = new Uint8Array(width * height).fill(LABEL.background);
  for (const r of regions) {
    const w = r.rect.x1 - r.rect.x0;
    const h = r.rect.y1 - r.rect.y0;
    for (let y = 0; y < h; y++) {
      const row = (r.rect.y0 + y) * width + r.rect.x0;
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (!r.mask[i]) continue;
        out[row + x] = !r.surface[i] ? LABEL.excluded : r.lesion[i] ? LABEL.lesion : LABEL.healthy;
      }
    }
  }
  return out;
}

/** An 8-bit single-channel PNG of label values (lossless: the values are classes, not shades). */
export function encodeLabelPng(values: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(values, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 6 })
    .toBuffer();
}
