import { fieldNameProblem, typeMetadataValue } from '@cassavascope/contract';
import { z } from 'zod';
import { ApiError } from './errors.js';
import type { MetaCondition } from '../db/sql-filters.js';

const PREFIX = 'meta.';
/** `meta_missing=FIELD[,FIELD]`: images without these fields (the group whose key value is null). */
const MISSING = 'meta_missing';

/**
 * The `meta.FIELD=VALUE` parameters of a listing (GET /images/, /predictions/, their export and groups): one
 * condition per field (AND), the value typed as stored values are (so `meta.dah=7` matches the number 7).
 * An empty value counts as absent, as for the other filters; a bad name or value is a 400 naming the parameter.
 * `meta_missing` adds a condition "without the field" for each field it names.
 */
export function parseMetaQuery(query: z.infer<typeof metaQuerySchema>): MetaCondition[] | undefined {
  const conditions: MetaCondition[] = [];
  const fields: Record<string, string> = {};
  for (const field of (query[MISSING] ?? '').split(',').map((f) => f.trim())) {
    if (field === '') continue;
    const problem = fieldNameProblem(field);
    if (problem) fields[MISSING] = `${field}: ${problem}`;
    else conditions.push({ field, value: null });
  }
  for (const [key, raw] of Object.entries(query.meta ?? {})) {
    if (!key.startsWith(PREFIX) || raw.trim() === '') continue;
    const field = key.slice(PREFIX.length);
    const problem = fieldNameProblem(field);
    if (problem) {
      fields[key] = problem;
      continue;
    }
    const typed = typeMetadataValue(field, raw);
    if (!typed.ok) fields[key] = typed.problem;
    else if (typed.value !== null) conditions.push({ field, value: typed.value });
  }
  if (Object.keys(fields).length > 0) {
    const summary = Object.entries(fields)
      .map(([k, m]) => `${k}: ${m}`)
      .join('; ');
    throw new ApiError(400, 'invalid', `Invalid query: ${summary}`, { fields });
  }
  return conditions.length > 0 ? conditions : undefined;
}

/**
 * The `meta.FIELD=VALUE` and `meta_missing` parameters, part of a listing's `querystring` schema. `meta` is an object
 * parameter, which in a query (form style, exploded: OpenAPI's default) is sent as one `meta.FIELD=VALUE` pair per
 * property; http/validation.ts gathers those pairs under `meta`, and `parseMetaQuery` checks each name and types
 * each value by its field.
 */
export const metaQuerySchema = z.object({
  meta: z
    .record(z.string(), z.string())
    .optional()
    .meta({
      propertyNames: { type: 'string', pattern: '^meta\\.[A-Za-z0-9_]{1,40}$' },
      description:
        'meta.FIELD=VALUE, one parameter per sample field (e.g. meta.genotype=TME419&meta.dah=7): only images with ' +
        'that value (typed as stored: meta.dah=7 matches the number 7); several are ANDed; an empty value is no ' +
        'filter; a bad field name or value is a 400 naming the parameter',
    }),
  [MISSING]: z
    .string()
    .optional()
    .meta({
      description:
        'FIELD[,FIELD]: only images without these fields (the group whose key value is null); combines with ' +
        'meta.FIELD=VALUE; empty is no filter; a bad field name is a 400 naming meta_missing',
    }),
});
