import fs from 'node:fs';
import { readLabModelFile, type LabModel } from './lab-model-file.js';

/**
 * Issue 22 point 5's hook: the slice lesion classifier trained with the lab-model code on the committed training
 * part of the CBSD labelled crops (`scripts/train-default-model.mjs`, split in `evaluate/cbsd-labelled-split.ts`),
 * shipped as `packages/ppd/models/cbsd-slice-lesion.json` because it is small and beat the rules on the held-out
 * part (docs/model.md). Not wired into the default engine here: the colour engine's owner decides where it
 * stands in (e.g. `labSegmentation(model).lesionProbability` for root slices). Null when the file is absent.
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
