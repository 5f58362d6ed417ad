import sharp from 'sharp';
import { severityOf, type Severity } from '@cassavascope/contract';
import type { Rect, RgbImage } from '../imaging/raster.js';
import { drawText, GLYPH_H, textWidth } from './bitmap-font.js';

/** Small, fast WebPs: these are previews, not archives. */
const WEBP = { quality: 72, effort: 0 } as const;

const LESION_FILL: readonly [number, number, number] = [230, 30, 30];
const LESION_EDGE: readonly [number, number, number] = [255, 225, 0];
const SPECIMEN_EDGE: readonly [number, number, number] = [40, 210, 90];
/**
 * Box colours of the overview by the band of the specimen's PPD (issue 25: cycling colours made a red "7: 0.98"
 * read as severe): the web app's band colours (apps/web src/lib/ppd.ts), and one colour for a box without a value.
 */
const BAND_COLOURS: Record<Severity, readonly [number, number, number]> = {
  healthy: [56, 158, 13],
  mild: [212, 161, 6],
  severe: [207, 19, 34],
};
export const UNSCORED_BOX: readonly [number, number, number] = [40, 160, 255];

export async function encodeWebp(img: RgbImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .webp(WEBP)
    .toBuffer();
}

function isEdge(mask: Uint8Array, width: number, height: number, i: number): boolean {
  const x = i % width;
  const y = (i - x) / width;
  return (
    x === 0 ||
    y === 0 ||
    x === width - 1 ||
    y === height - 1 ||
    !mask[i - 1] ||
    !mask[i + 1] ||
    !mask[i - width] ||
    !mask[i + width]
  );
}

/**
 * The cut with its lesions filled at `opacity` and outlined, and the specimen outlined; `inPlace` draws on the
 * cut's own pixels (when the caller needs them no more: one copy less a cut).
 */
export function overlayLesions(
  cut: RgbImage,
  specimen: Uint8Array,
  lesion: Uint8Array,
  opacity: number,
  inPlace = false,
): RgbImage {
  const { width, height } = cut;
  const out = inPlace ? cut.data : cut.data.slice();
  const keep = 1 - opacity;
  for (let i = 0; i < lesion.length; i++) {
    const o = i * 3;
    if (lesion[i]) {
      if (isEdge(lesion, width, height, i)) {
        out[o] = LESION_EDGE[0];
        out[o + 1] = LESION_EDGE[1];
        out[o + 2] = LESION_EDGE[2];
      } else {
        out[o] = out[o]! * keep + LESION_FILL[0] * opacity;
        out[o + 1] = out[o + 1]! * keep + LESION_FILL[1] * opacity;
        out[o + 2] = out[o + 2]! * keep + LESION_FILL[2] * opacity;
      }
    } else if (specimen[i] && isEdge(specimen, width, height, i)) {
      out[o] = SPECIMEN_EDGE[0];
      out[o + 1] = SPECIMEN_EDGE[1];
      out[o + 2] = SPECIMEN_EDGE[2];
    }
  }
  return { width, height, data: out };
}

function fillRect(
  data: Uint8Array,
  width: number,
  height: number,
  r: Rect,
  colour: readonly [number, number, number],
): void {
  const x0 = Math.max(0, r.x0);
  const y0 = Math.max(0, r.y0);
  const x1 = Math.min(width, r.x1);
  const y1 = Math.min(height, r.y1);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * width + x) * 3;
      data[o] = colour[0];
      data[o + 1] = colour[1];
      data[o + 2] = colour[2];
    }
  }
}

/**
 * The whole photo with numbered boxes and, when scored, each cut's PPD ("1: 3.25"), each box in its band's colour
 * (a box without a value in UNSCORED_BOX). `inPlace` draws on the photo's own pixels (when the caller needs
 * them no more: a 2.4 MB copy less a photo).
 */
export function drawOverview(image: RgbImage, boxes: Rect[], values: (number | null)[], inPlace = false): RgbImage {
  const { width, height } = image;
  const data = inPlace ? image.data : image.data.slice();
  const t = Math.max(2, Math.round(Math.max(width, height) / 400));
  const labelOf = (i: number) => {
    const v = values[i];
    return v === null || v === undefined ? `${i + 1}` : `${i + 1}: ${v.toFixed(2)}`;
  };
  // One label size for the photo, no wider than a typical box (the median's fit), so a tray of 30 slices keeps
  // every value readable and off its neighbour's, and a photo of three keeps large labels.
  const fits = boxes.map((b, i) => Math.floor((b.x1 - b.x0) / (textWidth(labelOf(i), 1) + 2))).sort((p, q) => p - q);
  const typicalFit = fits.length ? fits[Math.floor(fits.length / 2)]! : Infinity;
  const scale = Math.max(1, Math.min(Math.max(2, Math.round(Math.max(width, height) / 350)), typicalFit));
  boxes.forEach((b, i) => {
    const v = values[i];
    const colour = v === null || v === undefined ? UNSCORED_BOX : BAND_COLOURS[severityOf(v)];
    fillRect(data, width, height, { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y0 + t }, colour);
    fillRect(data, width, height, { x0: b.x0, y0: b.y1 - t, x1: b.x1, y1: b.y1 }, colour);
    fillRect(data, width, height, { x0: b.x0, y0: b.y0, x1: b.x0 + t, y1: b.y1 }, colour);
    fillRect(data, width, height, { x0: b.x1 - t, y0: b.y0, x1: b.x1, y1: b.y1 }, colour);
    const label = labelOf(i);
    const lw = textWidth(label, scale) + 2 * scale;
    const lh = GLYPH_H * scale + 2 * scale;
    const ly = b.y0 - lh >= 0 ? b.y0 - lh : b.y0 + t;
    const lx = Math.min(Math.max(0, b.x0), Math.max(0, width - lw));
    fillRect(data, width, height, { x0: lx, y0: ly, x1: lx + lw, y1: ly + lh }, [20, 20, 20]);
    drawText(data, width, height, label, lx + scale, ly + scale, scale, colour);
  });
  return { width, height, data };
}
