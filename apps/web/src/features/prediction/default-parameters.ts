import { PARAMETER_RANGES as R } from '@cassavascope/contract';
import type { PredictionParameterValues } from './api/create-prediction-task';

/** Spec section 5 defaults: post-processing on, TTA off. */
export const DEFAULT_PARAMETER_VALUES: PredictionParameterValues = {
  confidenceThreshold: R.confidence.default,
  usePostProcessing: true,
  useTTA: false,
  minArea: R.minArea.default,
  morphKernelSize: R.morphKernel.default,
  morphIterations: R.morphIterations.default,
  overlayOpacity: R.overlayOpacity.default,
};
