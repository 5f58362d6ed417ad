import type { AnalyseOptions } from './lab-model-api.js';
import { readLabModelFile, type LabModel } from './lab-model-file.js';

/** Parsed lab models a worker keeps, most recent last: a couple at most (a few MB each once parsed). */
const KEEP = 2;
const cache = new Map<string, LabModel>();

/** The parsed model of `ref`, parsed once per id; throws InvalidLabModelError for a bad file. */
export function labModelFor(ref: NonNullable<AnalyseOptions['labModel']>): LabModel {
  const hit = cache.get(ref.id);
  if (hit) {
    cache.delete(ref.id);
    cache.set(ref.id, hit);
    return hit;
  }
  const model = readLabModelFile(ref.file);
  cache.set(ref.id, model);
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  return model;
}
