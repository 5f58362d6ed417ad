import { apiErrorSchema } from '@cassavascope/contract';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { markMultipart } from '../http/validation.js';

/*
 * What routes declare about themselves is Fastify's own route `schema` (summary, params, querystring, body, response)
 * with zod schemas: fastify-type-provider-zod types the handler from it, http/validation.ts validates with it, and
 * @fastify/swagger documents it (openapi-document.ts). The helpers below name the answers that are not one JSON
 * schema.
 */

/** An error status with a description of its codes (the body is the common `{code, detail, ...}`). */
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: apiErrorSchema } },
});

/** An answer of another media type (CSV, HTML, a file). */
export const otherContent = (type: string, description: string, schema: z.ZodType = z.string()) => ({
  description,
  content: { [type]: { schema } },
});

/** No body (204, 304). */
export const noBody = z.undefined();

/** A path parameter that is an id: a positive integer ("id must be a positive integer" otherwise, a 400). */
export const pathId = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1 && Number.isSafeInteger(n), 'must be a positive integer')
  .meta({ description: 'a positive integer id' });

/** `:id` as the routes of one thing take it. */
export const idParams = z.object({ id: pathId });

/**
 * A multipart/form-data body as the document shows it: its text fields (the route's zod schema, which the route
 * applies itself as it reads the stream) and the fields that carry files. Not validated before the handler.
 */
export function multipartBody(
  fields: z.ZodObject,
  files: Record<string, { many: boolean; description: string }>,
): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(files)) {
    const file = z.string().meta({ format: 'binary', contentMediaType: 'application/octet-stream' });
    shape[name] = f.many
      ? z.array(file).meta({ description: f.description })
      : file.meta({ description: f.description });
  }
  return markMultipart(z.object({ ...shape, ...fields.shape }));
}

export interface RegisteredRoute {
  method: string;
  /** Fastify's path with its prefix, e.g. /api/images/:id/ */
  url: string;
  /** the route declared a `schema` with a summary */
  documented: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** every route registered (src/app.ts): what the OpenAPI test holds the document to */
    apiDocs: ApiDocRegistry;
  }
}

/**
 * Every route the server registers (through Fastify's onRoute hook, added before any route). HEAD routes Fastify
 * adds for GETs are left out (they answer as the GET does, without a body).
 */
export class ApiDocRegistry {
  readonly routes: RegisteredRoute[] = [];

  readonly onRoute = (options: RouteOptions): void => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const url = options.url;
    if (typeof url !== 'string') return;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      this.routes.push({ method, url, documented: typeof options.schema?.summary === 'string' });
    }
  };
}
