import sharp from 'sharp';
import { LABEL, type LabelImage } from './lab-model-api.js';

/**
 * Labels from a mask drawn in the CBSD sets' colours (`real-photos/README.md`): magenta (255,0,255) =
 * discoloured, grey (40,40,40) = not a slice, any other colour = healthy slice. Colours within 24 a channel
 * count as the named ones (a resaved mask may have drifted a little).
 */
export function labelsFromCbsdRgb(rgb: Uint8Array, width: number, height: number, channels = 3): LabelImage {
  const values = new Uint8Array(width * height);
  const near = (v: number, target: number) => Math.abs(v - target) <= 24;
  for (let i = 0, j = 0; i < values.length; i++, j += channels) {
    const r = rgb[j]!;
    const g = rgb[j + 1]!;
    const b = rgb[j + 2]!;
    if (near(r, 255) && near(g, 0) && near(b, 255)) values[i] = LABEL.lesion;
    else if (near(r, 40) && near(g, 40) && near(b, 40)) values[i] = LABEL.background;
    else values[i] = LABEL.healthy;
  }
  return { width, height, values };
}

export async function readCbsdMask(bytes: Uint8Array | string): Promise<LabelImage> {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return labelsFromCbsdRgb(data, info.width, info.height, info.channels);
}
