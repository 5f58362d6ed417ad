export * from './types.js';
export { createEngine } from './engine.js';
export { analysisParamsSchema, parseAnalysisParams } from './params.js';
export { COLOUR_ENGINE_INFO } from './models/colour-model.js';
export * from './learned/lab-model-api.js';
export * from './learned/label-image.js';
