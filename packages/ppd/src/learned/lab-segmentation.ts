import { rgbToLab, type LabPlanes } from '../imaging/lab.js';
import type { RgbImage } from '../imaging/raster.js';
import { createColourModel } from '../models/colour-model.js';
import { NOT_SPECIMEN, type SegmentationModel } from '../models/segmentation-model.js';
import type { SpecimenKind } from '../types.js';
import { readBlocks, testedFeatures, type BlockReading } from './flat-forest.js';
import type { LabModel } from './lab-model-file.js';
import {
  FEATURE_COUNT,
  FEATURE_NAMES,
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
/** The specimen feature holding the default engine's reading. */
const DEFAULT_LESION = FEATURE_NAMES.indexOf('default_lesion');

/** P(specimen) = 1 - P(background) of every pixel, from its block's reading. */
function specimenShare(read: BlockReading, width: number, height: number, stride: number): Float32Array {
  const { probs, slot, blocksWide } = read;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const brow = ((y / stride) | 0) * blocksWide;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const k = slot[brow + ((x / stride) | 0)]!;
      // a block always has a pixel without a mask; 1 - 0 as an unread pixel of the full copy read
      out[i] = 1 - (k < 0 ? 0 : probs[k * 4 + BACKGROUND]!);
    }
  }
  return out;
}

/**
 * P(discoloured) = P(lesion) / (P(healthy) + P(lesion)) of every pixel of `mask`, from its block's reading; a
 * pixel the model reads as background or as not scored (peel, bark, a label) leaves the specimen's area.
 */
function lesionShare(
  read: BlockReading,
  mask: Uint8Array,
  width: number,
  height: number,
  stride: number,
): Float32Array {
  const { probs, slot, blocksWide } = read;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const brow = ((y / stride) | 0) * blocksWide;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (!mask[i]) continue;
      const k = slot[brow + ((x / stride) | 0)]!;
      // every masked pixel's block has a reading (its first masked pixel); as an unread pixel of the full copy
      const o = k * 4;
      const b = k < 0 ? 0 : probs[o + BACKGROUND]!;
      const h = k < 0 ? 0 : probs[o + HEALTHY]!;
      const l = k < 0 ? 0 : probs[o + LESION]!;
      const e = k < 0 ? 0 : probs[o + EXCLUDED]!;
      if (b > h + l || e > h + l) out[i] = NOT_SPECIMEN;
      else out[i] = h + l > 0 ? l / (h + l) : 0;
    }
  }
  return out;
}

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
  const defaultLesion = await createColourModel().lesionProbability(cut, mask, kind);
  return cutFeaturesWith(planes, mask, reference, defaultLesion);
}

/**
 * `cutFeatures` once the default engine's reading of the cut is known (`defaultLesion`): synchronous, so a
 * worker may fill one reused buffer (`into`) and read it before anything else runs. With `need`, only the
 * features a forest tests are computed.
 */
function cutFeaturesWith(
  planes: LabPlanes,
  mask: Uint8Array,
  reference: PhotoReference,
  defaultLesion: Float32Array,
  need?: readonly boolean[],
  into?: Float32Array,
): Float32Array {
  const features = pixelFeatures(planes, reference, 1, FEATURE_COUNT, need, into);
  specimenFeatures(features, planes, mask, defaultLesion);
  return features;
}

/**
 * The feature buffer a worker reuses photo after photo (tens of MB a photo otherwise, whose collection had cost
 * as much as computing them). Filled and read within one synchronous stretch (no await in between).
 */
let featureBuffer = new Float32Array(0);
/** Kept up to this many values (16 MB: the half-size copy of a 12 MP photo, or a cut of a third of it). */
const KEEP_VALUES = 4 << 20;
function reusedBuffer(size: number): Float32Array | undefined {
  if (size > KEEP_VALUES) return undefined;
  if (featureBuffer.length < size) featureBuffer = new Float32Array(size);
  return featureBuffer;
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
  // each forest's features are computed only where it tests them (the others stay 0: never read)
  const photoNeed = testedFeatures(forest);
  const lesionNeed = testedFeatures(lesionForest ?? forest);
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
      const features = pixelFeatures(
        planes,
        reference,
        scale,
        PHOTO_FEATURE_COUNT,
        photoNeed,
        reusedBuffer(PHOTO_FEATURE_COUNT * n),
      );
      const stride = strideFor(n);
      const read = readBlocks(forest, features, image.width, image.height, stride);
      return specimenShare(read, image.width, image.height, stride);
    },
    async lesionProbability(cut: RgbImage, mask: Uint8Array, kind: SpecimenKind = 'root_slice'): Promise<Float32Array> {
      const n = cut.width * cut.height;
      const planes = rgbToLab(cut.data, cut.width, cut.height);
      const ref = reference ?? photoReference(planes);
      // a model of feature version 1 has one forest for both stages, on the photo features only; the default engine's reading is a whole second segmentation of the cut: only for a forest that tests it
      const defaultLesion = !lesionForest
        ? null
        : lesionNeed[DEFAULT_LESION]
          ? await createColourModel().lesionProbability(cut, mask, kind)
          : new Float32Array(n);
      // from here to the reading, no await: the reused buffer is this cut's
      const features = defaultLesion
        ? cutFeaturesWith(planes, mask, ref, defaultLesion, lesionNeed, reusedBuffer(FEATURE_COUNT * n))
        : pixelFeatures(planes, ref, 1, PHOTO_FEATURE_COUNT, lesionNeed, reusedBuffer(PHOTO_FEATURE_COUNT * n));
      const stride = strideFor(n);
      const read = readBlocks(lesionForest ?? forest, features, cut.width, cut.height, stride, mask);
      return lesionShare(read, mask, cut.width, cut.height, stride);
    },
    async close() {},
  };
}
