// Test and benchmark tooling, exported as @cassavascope/ppd/synthetic (not part of the engine's API).
export * from './slice-scene.js';
export * from './evaluate.js';
export * from './tiny-onnx-model.js';
export * from './leaf-scene.js';
export { seededRandom } from './random.js';
export { strokeLabels } from './stroke-labels.js';
