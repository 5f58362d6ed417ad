import { apiErrorSchema } from '@cassavascope/contract';
import type { RouteOptions } from 'fastify';
import type { z } from 'zod';

/**
 * What a route declares about itself for the OpenAPI document (GET /api/openapi.json): the zod schemas it
 * validates its input with and the schemas of what it answers. Routes pass it as their options,
 * `app.get('/x/', doc({...}), handler)`; `ApiDocRegistry` collects it as Fastify registers the route, so the
 * document lists exactly the routes that exist, each with the schemas its code uses.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** defaults to the first path segment after /api (images, folders, tasks, predictions, status) */
  tag?: string;
  /** query parameters: each key of the object is one parameter (the route's own zod schema) */
  query?: z.ZodObject;
  /** path parameters that are not positive integer ids (every `:name` is one by default) */
  params?: Record<string, z.ZodType>;
  /** a JSON body */
  body?: z.ZodType;
  /** a multipart/form-data body: its text fields and which fields carry files */
  multipart?: { fields: z.ZodObject; files: Record<string, { many: boolean; description: string }> };
  /**
   * The answers. A schema is a JSON body; `null` is no body (204, 304); `{content, description}` names another
   * media type (CSV, HTML, binary); `'error'` or `errorResponse(description)` is the `{code, detail}` body. Added
   * unless given: 421 (unknown Host) and 500 to every route, 403 (cross-site) to writes, 507 (storage full) to
   * writes other than DELETE, 400 to routes with input, 404 to routes with an id in the path, 401 and 403 to
   * routes that need a session when sign-in is on (auth/role-policy.ts).
   */
  responses: Record<number, ResponseDoc>;
}

export type ResponseDoc =
  | z.ZodType
  | null
  | 'error'
  | { content: string; description: string; schema?: Record<string, unknown> }
  | { json: z.ZodType; description: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** this route's OpenAPI description (src/openapi/route-doc.ts) */
    openapi?: RouteDoc;
  }
  interface FastifyInstance {
    /** every route registered, with its description (src/app.ts): the OpenAPI document's source */
    apiDocs: ApiDocRegistry;
  }
}

/** An error status with a description of its codes (the body is the common `{code, detail, ...}`). */
export const errorResponse = (description: string): ResponseDoc => ({ json: apiErrorSchema, description });

/** Route options carrying a route's description: `app.get(path, doc({...}), handler)`. */
export function doc(description: RouteDoc): { config: { openapi: RouteDoc } } {
  return { config: { openapi: description } };
}

export interface RegisteredRoute {
  method: string;
  /** Fastify's path with its prefix, e.g. /api/images/:id/ */
  url: string;
  doc: RouteDoc | undefined;
}

/**
 * Every route the server registers (through Fastify's onRoute hook, added before any route) with its
 * description. HEAD routes Fastify adds for GETs are left out (they answer as the GET does, without a body).
 */
export class ApiDocRegistry {
  readonly routes: RegisteredRoute[] = [];

  readonly onRoute = (options: RouteOptions): void => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const url = options.url;
    if (typeof url !== 'string') return;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      this.routes.push({ method, url, doc: options.config?.openapi });
    }
  };
}
