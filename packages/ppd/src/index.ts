export * from './types.js';
export { createEngine } from './engine.js';
export { analysisParamsSchema, parseAnalysisParams } from './params.js';
export { COLOUR_ENGINE_INFO } from './models/colour-model.js';
export * from './learned/lab-model-api.js';
export * from './learned/label-image.js';
export { trainLabModel, TrainingError } from './learned/train-lab-model.js';
export {
  readLabModelFile,
  InvalidLabModelError,
  LAB_MODEL_FORMAT,
  LAB_MODEL_VERSION,
  LAB_MODEL_MAX_BYTES,
  type LabModel,
} from './learned/lab-model-file.js';
export { readCbsdMask } from './learned/cbsd-mask.js';
