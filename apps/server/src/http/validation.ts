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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A name people read (folder, task): no control characters (NUL, line breaks, escapes) and no broken UTF-16
 * (a lone surrogate would be stored as U+FFFD).
 */
export function isPlainName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f]/.test(name) && !LONE_SURROGATE.test(name);
}

export const PLAIN_NAME_MESSAGE = 'must not contain control characters or broken characters';
