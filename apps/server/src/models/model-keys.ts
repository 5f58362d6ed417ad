/**
 * Storage keys of a model's files: `models/<id>/model-<version>.bin` (the portable file) and
 * `models/<id>/heldout_<image>_<model|baseline>.webp`. The orphan sweep leaves keys of this shape alone; a model's
 * delete removes its prefix.
 */
export const modelFilesPrefix = (modelId: number) => `models/${modelId}/`;
/** A new key per file written (`version`: a random token), so a key names one file's bytes for ever: the engine's workers cache models by it. */
export const modelFileKey = (modelId: number, version: string) => `${modelFilesPrefix(modelId)}model-${version}.bin`;
export const overlayKey = (modelId: number, imageId: number, which: 'model' | 'baseline') =>
  `${modelFilesPrefix(modelId)}heldout_${imageId}_${which}.webp`;
