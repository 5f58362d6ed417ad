import { DEFAULT_PARAMETERS, predictionParametersSchema, type PredictionParameters } from '@cassavascope/contract';

/**
 * The one reader of a task's stored parameters (`tasks.parameters`, JSON written from the validated request):
 * parsed by the contract's schema, so a key stored before that parameter existed reads as its default, the value
 * the task was scored with. A row the schema refuses (written under older ranges) still reads, its known keys
 * over the defaults: listing an old task must never fail.
 */
export function storedTaskParameters(json: string | null | undefined): PredictionParameters {
  let raw: unknown;
  try {
    raw = JSON.parse(json ?? '{}');
  } catch {
    raw = {};
  }
  const parsed = predictionParametersSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const known = typeof raw === 'object' && raw !== null ? (raw as Partial<PredictionParameters>) : {};
  return { ...DEFAULT_PARAMETERS, ...known };
}

/**
 * What the engine is given to score one photo: the task's parameters without `split_count`, which only says how
 * many photos go into one job.
 */
export function analysisParameters(params: PredictionParameters): Omit<PredictionParameters, 'split_count'> {
  const { split_count: _split, ...analysis } = params;
  return analysis;
}
