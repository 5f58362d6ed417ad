import { z } from 'zod';
import { PARAMETER_RANGES as R, SPLIT_COUNT } from './constants.js';

/**
 * Prediction parameters as the API and the engine name them (spec section 5 ranges).
 * `method: "post"` turns post-processing (morphological open/close + small-lesion removal) on.
 */
export const predictionParametersSchema = z.object({
  threshold: z.number().min(R.confidence.min).max(R.confidence.max).default(R.confidence.default),
  min_size: z.number().int().min(R.minArea.min).max(R.minArea.max).default(R.minArea.default),
  method: z.enum(['post', 'none']).default('post'),
  use_tta: z.boolean().default(false),
  morph_kernel_size: z
    .number()
    .int()
    .min(R.morphKernel.min)
    .max(R.morphKernel.max)
    .refine((v) => v % 2 === 1, 'must be odd')
    .default(R.morphKernel.default),
  morph_iterations: z
    .number()
    .int()
    .min(R.morphIterations.min)
    .max(R.morphIterations.max)
    .default(R.morphIterations.default),
  overlay_opacity: z.number().min(R.overlayOpacity.min).max(R.overlayOpacity.max).default(R.overlayOpacity.default),
  split_count: z.number().int().min(1).max(1000).default(SPLIT_COUNT),
});

export type PredictionParameters = z.infer<typeof predictionParametersSchema>;
export const DEFAULT_PARAMETERS: PredictionParameters = predictionParametersSchema.parse({});
