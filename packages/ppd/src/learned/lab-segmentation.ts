import { rgbToLab, type LabPlanes } from '../imaging/lab.js';
import type { RgbImage } from '../imaging/raster.js';
import { createColourModel } from '../models/colour-model.js';
import { NOT_SPECIMEN, type SegmentationModel } from '../models/segmentation-model.js';
import type { SpecimenKind } from '../types.js';
import { predictBlocks } from './flat-forest.js';
import type { LabModel } from './lab-model-file.js';
import {
  PHOTO_FEATURE_COUNT,
  photoReference,
  pixelFeatures,
  specimenFeatures,
  type PhotoReference,
} from './pixel-features.js';

/** Forest class indices (label value - 1). */
const BACKGROUND = 0;
const HEALTHY = 1;
const LESION = 2;
const EXCLUDED = 3;

/** Images larger than this are read one pixel per 2 x 2 block (see predictBlocks): a 12 MP photo's working copy. */
const BLOCKS_ABOVE = 40_000;
const strideFor = (n: number) => (n > BLOCKS_ABOVE ? 2 : 1);

/**
 * All features of the pixels of one specimen's cut (working size), as the lesion forest reads them: the photo
 * features against the photo's `reference`, then the specimen features, with the default engine's reading of the
 * cut from a colour engine of its own (no photo-wide reference: training and scoring read a cut alike).
 */
export async function cutFeatures(
  cut: RgbImage,
  mask: Uint8Array,
  kind: SpecimenKind,
  reference: PhotoReference,
  planes = rgbToLab(cut.data, cut.width, cut.height),
): Promise<Float32Array> {
  const features = pixelFeatures(planes, reference, 1);
  const colour = createColourModel();
  const defaultLesion = await colour.lesionProbability(cut, mask, kind);
  specimenFeatures(features, planes, mask, defaultLesion);
  return features;
}

/**
 * A lab model as the pipeline's segmentation model: its pixel classes stand in for the colour rules, and the
 * rest (specimen finding and splitting, reading order, post-processing, PPD, images) is the shared pipeline.
 * One instance per photo: it keeps the photo's reference colours between the calls.
 */
export function labSegmentation(model: LabModel): SegmentationModel {
  let workingWidth = 0;
  let reference: PhotoReference | null = null;
  const { forest, lesionForest } = model;
  return {
    // the contract names two engine kinds; a lab model runs the colour engine's pipeline with its own classes
    info: { name: 'lab-model', label: model.name, kind: 'colour' },
    prepare(working: RgbImage) {
      workingWidth = working.width;
      reference = null;
    },
    async specimenProbability(image: RgbImage, lab?: LabPlanes): Promise<Float32Array> {
      const planes = lab ?? rgbToLab(image.data, image.width, image.height);
      reference = photoReference(planes);
      const scale = workingWidth > 0 ? image.width / workingWidth : 1;
      const n = image.width * image.height;
      const features = pixelFeatures(planes, reference, scale, PHOTO_FEATURE_COUNT);
      const probs = predictBlocks(forest, features, image.width, image.height, strideFor(n));
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = 1 - probs[i * 4 + BACKGROUND]!;
      return out;
    },
    async lesionProbability(cut: RgbImage, mask: Uint8Array, kind: SpecimenKind = 'root_slice'): Promise<Float32Array> {
      const n = cut.width * cut.height;
      const planes = rgbToLab(cut.data, cut.width, cut.height);
      const ref = reference ?? photoReference(planes);
      // a model of feature version 1 has one forest for both stages, on the photo features only
      const features = lesionForest
        ? await cutFeatures(cut, mask, kind, ref, planes)
        : pixelFeatures(planes, ref, 1, PHOTO_FEATURE_COUNT);
      const probs = predictBlocks(lesionForest ?? forest, features, cut.width, cut.height, strideFor(n), mask);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        if (!mask[i]) continue;
        const o = i * 4;
        const h = probs[o + HEALTHY]!;
        const l = probs[o + LESION]!;
        // a pixel the model reads as background or as not scored (peel, bark, a label) leaves the specimen's area
        if (probs[o + BACKGROUND]! > h + l || probs[o + EXCLUDED]! > h + l) out[i] = NOT_SPECIMEN;
        else out[i] = h + l > 0 ? l / (h + l) : 0;
      }
      return out;
    },
    async close() {},
  };
}
