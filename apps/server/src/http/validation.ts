import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { ApiError } from './errors.js';

/** The 400 `{code: "invalid", detail, fields}` of failed zod issues: `fields` maps each dotted path to a message. */
export function invalidInput(issues: readonly z.core.$ZodIssue[], what: string): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'non_field_errors';
    fields[key] ??= issue.message;
  }
  const summary = Object.entries(fields)
    .map(([k, m]) => `${k}: ${m}`)
    .join('; ');
  return new ApiError(400, 'invalid', `Invalid ${what}: ${summary}`, { fields });
}

/**
 * Validates input a route reads itself (multipart text fields) with a zod schema. Failures become 400
 * `{code: "invalid", detail, fields}` as for the inputs a route declares in its `schema`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'request'): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw invalidInput(result.error.issues, what);
}

/** What each JSON body is, for the detail of its 400 ("Invalid folder: name: ..."); set with `named`. */
const BODY_NAMES = new WeakMap<object, string>();

/** Names a body schema in its 400s (`Invalid {what}: ...`); unnamed bodies are "request". Returns the schema. */
export function named<S extends z.ZodType>(what: string, schema: S): S {
  BODY_NAMES.set(schema, what);
  return schema;
}

/**
 * A query as the schemas read it: a repeated parameter keeps its last value (`?a=1&a=2` is "2", as Django does), an
 * empty or blank value counts as absent (a form's blank field), and the `meta.FIELD=VALUE` pairs are gathered under
 * `meta` (`parseMetaQuery` reads them).
 */
export function normaliseQuery(query: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const meta: Record<string, string> = {};
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      // A bare `meta` is no parameter of any route (only `meta.FIELD` is): ignored, as unknown ones are.
      if (typeof last !== 'string' || last.trim() === '' || key === 'meta') continue;
      if (key.startsWith('meta.')) meta[key] = last;
      else out[key] = last;
    }
  }
  if (Object.keys(meta).length > 0) out.meta = meta;
  return out;
}

/**
 * Fastify's validator for the zod schemas routes declare (`schema: {params, querystring, body}`, typed through
 * fastify-type-provider-zod): a failure is the same 400 `{code: "invalid", detail, fields}` a route's own
 * parseInput gives. A bad path parameter says `{name} {problem}` ("id must be a positive integer"). A body schema
 * marked `multipart` only documents the form: its route reads the stream itself.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  if (httpPart === 'body' && isMultipartDoc(schema)) return () => ({ value: undefined });
  const what = httpPart === 'querystring' ? 'query' : (BODY_NAMES.get(schema) ?? 'request');
  return (data: unknown) => {
    const input = httpPart === 'querystring' ? normaliseQuery(data) : (data ?? {});
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    if (httpPart !== 'params') return { error: invalidInput(result.error.issues, what) };
    const fields: Record<string, string> = {};
    for (const issue of result.error.issues) fields[String(issue.path[0] ?? 'path')] ??= issue.message;
    const detail = Object.entries(fields)
      .map(([k, m]) => `${k} ${m}`)
      .join('; ');
    return { error: new ApiError(400, 'invalid', detail, { fields }) };
  };
};

declare module 'fastify' {
  interface FastifyRequest {
    /** a DELETE's path and query parameters as sent, before validation (its audit entry records them) */
    sentParams?: Record<string, unknown>;
  }
}

/**
 * Keeps a DELETE's parameters as sent (strings, no defaults): validation replaces `params` and `query` with their
 * parsed values, and the deletion's audit entry (deletion-audit.ts) records what the request named.
 */
export function keepSentParams(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.method === 'DELETE') req.sentParams = { ...(req.params as object), ...(req.query as object) };
    done();
  });
}

/** Multipart bodies are described (for the document) but read by their routes: see `multipartBody`. */
const MULTIPART = new WeakSet<object>();
export const markMultipart = <S extends z.ZodType>(schema: S): S => {
  MULTIPART.add(schema);
  return schema;
};
const isMultipartDoc = (schema: unknown) => typeof schema === 'object' && schema !== null && MULTIPART.has(schema);

// Names have their own rules (src/names): re-exported for the schemas that validate them.
export { isPlainName, NAME_PROBLEM as PLAIN_NAME_MESSAGE } from '../names/names.js';
