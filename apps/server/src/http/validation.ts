import type { z } from 'zod';
import { ApiError } from './errors.js';

/**
 * Validates request input with a zod schema. Failures become 400 `{code: "invalid", detail, fields}`
 * where `fields` maps each offending key (dotted path) to a message.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'request'): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'non_field_errors';
    fields[key] ??= issue.message;
  }
  const summary = Object.entries(fields)
    .map(([k, m]) => `${k}: ${m}`)
    .join('; ');
  throw new ApiError(400, 'invalid', `Invalid ${what}: ${summary}`, { fields });
}

// Names have their own rules (src/names): re-exported for the schemas that validate them.
export { isPlainName, NAME_PROBLEM as PLAIN_NAME_MESSAGE } from '../names/names.js';
