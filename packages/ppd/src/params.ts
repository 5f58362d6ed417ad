import { predictionParametersSchema } from '@cassavascope/contract';
import type { AnalysisParams } from './types.js';

/** The engine's parameter schema: the API's, minus the queue-only split_count. Ranges and defaults come from the contract. */
export const analysisParamsSchema = predictionParametersSchema.omit({ split_count: true });

export type ParamsCheck = { ok: true; params: AnalysisParams } | { ok: false; message: string };

/** Validates and fills defaults; the message names each bad field so a caller can show it. */
export function parseAnalysisParams(input: unknown): ParamsCheck {
  const parsed = analysisParamsSchema.safeParse(input ?? {});
  if (parsed.success) return { ok: true, params: parsed.data };
  const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
  return { ok: false, message };
}
