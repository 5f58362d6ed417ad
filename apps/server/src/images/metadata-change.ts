import { fieldNameProblem, typeMetadataValue, type ImageMetadata } from '@cassavascope/contract';

/** A metadata change as validated: fields to set (typed values) and fields to remove. */
export interface MetadataChange {
  set: ImageMetadata;
  remove: string[];
}

/**
 * Checks `{field: value | null}` (PATCH /images/{id}/): every name and value by api.md's rules. Returns the
 * change, or the problems keyed `metadata.FIELD` (the 400's `fields`).
 */
export function validateMetadataChange(input: Record<string, unknown>): {
  change: MetadataChange;
  problems: Record<string, string>;
} {
  const change: MetadataChange = { set: {}, remove: [] };
  const problems: Record<string, string> = {};
  for (const [field, raw] of Object.entries(input)) {
    const nameProblem = fieldNameProblem(field);
    if (nameProblem) {
      problems[`metadata.${field}`] = nameProblem;
      continue;
    }
    const typed = typeMetadataValue(field, raw);
    if (!typed.ok) problems[`metadata.${field}`] = typed.problem;
    else if (typed.value === null) change.remove.push(field);
    else change.set[field] = typed.value;
  }
  return { change, problems };
}
