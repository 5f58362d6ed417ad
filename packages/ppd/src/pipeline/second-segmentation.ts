import { and, close, countOnes, open, removeSmall } from '../imaging/mask-ops.js';
import { flip, type Flip, type RgbImage } from '../imaging/raster.js';
import type { SegmentationModel } from '../models/segmentation-model.js';
import type { AnalysisParams } from '../types.js';

export interface CutScore {
  lesion: Uint8Array;
  /** discoloured share of the specimen, 0-1 */
  share: number;
  /** mean |2p - 1| over the specimen's pixels */
  certainty: number;
}

/** TTA: the identity plus the two mirror images; the mean probability is used. */
const TTA_FLIPS: Flip[] = ['none', 'h', 'v'];

/** P(discoloured) of a cut, averaged over flipped copies when `tta` is on. */
export async function lesionProbability(model: SegmentationModel, cut: RgbImage, mask: Uint8Array, tta: boolean): Promise<Float32Array> {
  if (!tta) return model.lesionProbability(cut, mask);
  const { width, height } = cut;
  const sum = new Float32Array(width * height);
  for (const how of TTA_FLIPS) {
    const img = { width, height, data: flip(cut.data, width, height, 3, how) };
    const p = await model.lesionProbability(img, flip(mask, width, height, 1, how));
    const back = flip(p, width, height, 1, how);
    for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + back[i]!;
  }
  for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! / TTA_FLIPS.length;
  return sum;
}

/**
 * Second segmentation: cut the probability at `threshold`; with `method: post`, open then close with the
 * kernel and iterations and drop lesion regions under `min_size`; score = lesion area / specimen area.
 */
export function scoreCut(prob: Float32Array, mask: Uint8Array, width: number, height: number, params: AnalysisParams): CutScore {
  let lesion: Uint8Array = new Uint8Array(mask.length);
  let certain = 0;
  let area = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const p = prob[i]!;
    area++;
    certain += Math.abs(2 * p - 1);
    if (p >= params.threshold) lesion[i] = 1;
  }
  if (params.method === 'post') {
    lesion = open(lesion, width, height, params.morph_kernel_size, params.morph_iterations);
    lesion = close(lesion, width, height, params.morph_kernel_size, params.morph_iterations);
    lesion = and(lesion, mask);
    lesion = removeSmall(lesion, width, height, params.min_size);
  }
  return { lesion, share: area > 0 ? countOnes(lesion) / area : 0, certainty: area > 0 ? certain / area : 0 };
}
