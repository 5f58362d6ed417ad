import fs from 'node:fs';
import type { LabPlanes } from '../imaging/lab.js';
import { predictBlocks } from './flat-forest.js';
import { readLabModelFile, type LabModel } from './lab-model-file.js';
import { PHOTO_FEATURE_COUNT, pixelFeatures, type PhotoReference } from './pixel-features.js';

/**
 * Issue 22 point 5's hook: the slice lesion classifier trained with the lab-model code on the committed training
 * part of the CBSD labelled crops (`scripts/train-default-model.mjs`, split in `evaluate/cbsd-labelled-split.ts`),
 * shipped as `packages/ppd/models/cbsd-slice-lesion.json` because it is small and beat the rules on the held-out
 * part (docs/model.md). The colour engine blends it into a root slice's face with `SLICE_LESION.learnedWeight`
 * (models/tuning.ts), off: it cost the roots + tray slices more than it gained on the CBSD held-out crops
 * (docs/model-notebook.md, 2026-11-27). Null when the file is absent.
 */
export const DEFAULT_SLICE_MODEL_URL = new URL('../../models/cbsd-slice-lesion.json', import.meta.url);

let cached: LabModel | null | undefined;

export function defaultSliceModel(): LabModel | null {
  if (cached !== undefined) return cached;
  try {
    cached = readLabModelFile(fs.readFileSync(DEFAULT_SLICE_MODEL_URL));
  } catch {
    cached = null;
  }
  return cached;
}

/** Forest class indices (label value - 1), as in lab-segmentation.ts. */
const HEALTHY = 1;
const LESION = 2;
/** cuts larger than this are read one pixel per 2 x 2 block, as a lab model reads them */
const BLOCKS_ABOVE = 40_000;

/**
 * The classifier's P(discoloured) = P(lesion) / (P(healthy) + P(lesion)) for the pixels of `mask` of one cut;
 * its background and not-scored classes are ignored, since the rules keep deciding what is tissue (the
 * classifier's labels count the peel ring as necrotic, the tray's truth and the rules do not).
 */
export function learnedLesionShare(
  model: LabModel,
  lab: LabPlanes,
  mask: Uint8Array,
  ref: PhotoReference,
): Float32Array {
  const { width, height } = lab;
  const n = width * height;
  const stride = n > BLOCKS_ABOVE ? 2 : 1;
  const probs = predictBlocks(
    model.forest,
    pixelFeatures(lab, ref, 1, PHOTO_FEATURE_COUNT),
    width,
    height,
    stride,
    mask,
  );
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!mask[i]) continue;
    const h = probs[i * 4 + HEALTHY]!;
    const l = probs[i * 4 + LESION]!;
    out[i] = h + l > 0 ? l / (h + l) : 0;
  }
  return out;
}
