import { countOnes, dilate, erode, labelRuns } from '../imaging/mask-ops.js';
import { flip, type Flip, type RgbImage } from '../imaging/raster.js';
import type { SegmentationModel } from '../models/segmentation-model.js';
import type { AnalysisParams, SpecimenKind } from '../types.js';

export interface CutScore {
  lesion: Uint8Array;
  /** the specimen's own pixels, less what the model took out of it (bark seen from the side) */
  specimen: Uint8Array;
  /** discoloured share of the specimen, 0-1 */
  share: number;
  /** mean |2p - 1| over the specimen's pixels */
  certainty: number;
}

/** TTA: the identity plus the two mirror images; the mean probability is used. */
const TTA_FLIPS: Flip[] = ['none', 'h', 'v'];

/** P(discoloured) of a cut, averaged over flipped copies when `tta` is on. */
export async function lesionProbability(
  model: SegmentationModel,
  cut: RgbImage,
  mask: Uint8Array,
  tta: boolean,
  kind: SpecimenKind = 'root_slice',
): Promise<Float32Array> {
  if (!tta) return model.lesionProbability(cut, mask, kind);
  const { width, height } = cut;
  const sum = new Float32Array(width * height);
  for (const how of TTA_FLIPS) {
    const img = { width, height, data: flip(cut.data, width, height, 3, how) };
    const p = await model.lesionProbability(img, flip(mask, width, height, 1, how), kind);
    const back = flip(p, width, height, 1, how);
    for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + back[i]!;
  }
  for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! / TTA_FLIPS.length;
  return sum;
}

/**
 * `method: post`: opening then closing with the kernel, `iterations` times each, then lesion regions under
 * `min_size` pixels dropped. A region is what the closing joins: spots closer together than the kernel
 * (speckled discolouration of the vascular bundles) make one region with the area of its discoloured pixels,
 * so a dense field of specks counts as the lesion it is, while a speck or a thin streak on its own is still
 * opened away, and a larger `min_size` still drops more.
 */
function postProcess(
  raw: Uint8Array,
  mask: Uint8Array,
  width: number,
  height: number,
  params: AnalysisParams,
): Uint8Array {
  // `iterations` passes of a k-square are one pass of a K-square, and two erosions (or dilations) in a row are
  // one of 2K - 1: the usual open -> close, and the speckled fields (closed first, so spots within the kernel
  // join, then opened), in three passes each
  const K = params.morph_iterations * (params.morph_kernel_size - 1) + 1;
  const smooth = erode(dilate(erode(raw, width, height, K), width, height, 2 * K - 1), width, height, K);
  const fields = dilate(erode(dilate(raw, width, height, K), width, height, 2 * K - 1), width, height, K);
  const lesion = new Uint8Array(mask.length);
  const region = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    // inside a field only the pixels that are themselves discoloured count, never the gaps between specks
    if (smooth[i] || (fields[i] && raw[i])) lesion[i] = 1;
    if (lesion[i] || fields[i]) region[i] = 1;
  }
  const runs = labelRuns(region, width, height, 1, 8);
  const area = new Float64Array(runs.count);
  for (let r = 0; r < runs.count; r++) {
    const o = runs.row[r]! * width;
    let ones = 0;
    for (let i = o + runs.x0[r]!; i < o + runs.x1[r]!; i++) ones += lesion[i]!;
    area[runs.rootOf(r)]! += ones;
  }
  for (let r = 0; r < runs.count; r++) {
    if (area[runs.rootOf(r)]! >= params.min_size) continue;
    const o = runs.row[r]! * width;
    lesion.fill(0, o + runs.x0[r]!, o + runs.x1[r]!);
  }
  return lesion;
}

/**
 * Second segmentation: cut the probability at `threshold`, post-process with `method: post`;
 * score = lesion area / specimen area.
 */
export function scoreCut(
  prob: Float32Array,
  cutMask: Uint8Array,
  width: number,
  height: number,
  params: AnalysisParams,
): CutScore {
  let lesion: Uint8Array = new Uint8Array(cutMask.length);
  const mask = new Uint8Array(cutMask.length);
  for (let i = 0; i < mask.length; i++) mask[i] = cutMask[i] && prob[i]! >= 0 ? 1 : 0;
  let certain = 0;
  let area = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const p = prob[i]!;
    area++;
    certain += Math.abs(2 * p - 1);
    if (p >= params.threshold) lesion[i] = 1;
  }
  if (params.method === 'post') lesion = postProcess(lesion, mask, width, height, params);
  return {
    lesion,
    specimen: mask,
    share: area > 0 ? countOnes(lesion) / area : 0,
    certainty: area > 0 ? certain / area : 0,
  };
}
