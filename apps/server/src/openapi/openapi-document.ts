import { API_OBJECT_SCHEMAS } from '@cassavascope/contract';
import { z } from 'zod';
import { accessFor } from '../security/role-policy.js';
import type { RegisteredRoute, ResponseDoc, RouteDoc } from './route-doc.js';

type Json = Record<string, unknown>;

/** The part of the server the document describes: the API and the stored files (not the web app's files). */
export const isDocumentedUrl = (url: string) => url.startsWith('/api/') || url.startsWith('/media/');

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  206: 'Partial content (one byte range)',
  304: 'Not modified (If-None-Match matched)',
  400: 'Invalid input: `invalid` with `fields` naming each offending field (or another 4xx code)',
  401: 'Sign-in is on and the request has no live session: `not_signed_in`',
  403: 'A state-changing request from another site (`cross_origin`), or a role that may not do this (`forbidden`, with sign-in on)',
  404: 'Unknown id: `not_found`',
  409: 'Conflict',
  410: 'Gone',
  413: 'Too large: `too_large`',
  415: 'Unsupported type: `not_an_image`, `invalid_zip` or `unsupported_media_type`',
  416: 'Range not satisfiable',
  421: 'The Host header names a host this server does not answer to: `unknown_host`',
  422: 'Unprocessable',
  500: 'Internal error: `internal_error` (never a stack trace)',
  503: 'Unavailable',
  504: 'Still running',
  507: 'The disk or the object store is full: `storage_full`; nothing was written',
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/api/images/:id/` -> `/api/images/{id}/`; a trailing wildcard becomes `{path}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\*$/, '{path}');
}

function pathParamNames(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  if (url.endsWith('*')) names.push('path');
  return names;
}

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((s) =>
      s
        .replace(/^:/, '')
        .replace(/\*/, 'path')
        .replace(/[^A-Za-z0-9]+/g, '_'),
    );
  return [method.toLowerCase(), ...words].join('_');
}

const isZod = (v: unknown): v is z.ZodType => typeof v === 'object' && v !== null && '_zod' in v;

/** A schema as OpenAPI embeds it: without the `$schema` / `$id` a standalone JSON Schema carries. */
function bare(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function standalone(schema: z.ZodType, io: 'input' | 'output'): Json {
  return bare(z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json);
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Converts many zod schemas at once (one direction: request input or response output) so that the API's named
 * objects become `$ref`s to `components.schemas` instead of copies.
 */
class SchemaSet {
  private readonly registry = z.registry<{ id: string }>();
  private readonly ids = new Map<z.ZodType, string>();
  private converted: Record<string, Json> | null = null;

  constructor(
    private readonly io: 'input' | 'output',
    named: Record<string, z.ZodType>,
  ) {
    for (const [name, schema] of Object.entries(named)) this.add(schema, name);
  }

  add(schema: z.ZodType, id: string): string {
    const known = this.ids.get(schema);
    if (known) return known;
    this.ids.set(schema, id);
    this.registry.add(schema, { id });
    return id;
  }

  get(id: string): Json {
    this.converted ??= (
      z.toJSONSchema(this.registry, {
        io: this.io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
        uri: (name) => `#/components/schemas/${name}`,
      }) as { schemas: Record<string, Json> }
    ).schemas;
    const schema = this.converted[id];
    if (!schema) throw new Error(`no converted schema ${id}`);
    return bare(schema);
  }
}

const NAMED = API_OBJECT_SCHEMAS as unknown as Record<string, z.ZodType>;
const NAME_OF = new Map<z.ZodType, string>(Object.entries(NAMED).map(([n, s]) => [s, n]));

interface Pending {
  path: string;
  method: string;
  operation: Json;
  /** fills in the schemas once every route's schemas are known */
  fill: () => void;
}

/**
 * The OpenAPI 3.1 document of the routes the server registered, from the zod schemas each route declared
 * (`doc()` in its routes file) and the contract's response schemas.
 */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], version: string): Json {
  const inputs = new SchemaSet('input', {});
  const outputs = new SchemaSet('output', NAMED);
  const pending: Pending[] = [];

  for (const route of routes) {
    if (!isDocumentedUrl(route.url) || !route.doc) continue;
    pending.push(describe(route.method, route.url, route.doc, inputs, outputs));
  }
  const paths: Record<string, Record<string, Json>> = {};
  for (const p of pending) {
    p.fill();
    (paths[p.path] ??= {})[p.method.toLowerCase()] = p.operation;
  }
  const schemas: Record<string, Json> = {};
  for (const name of Object.keys(NAMED)) schemas[name] = outputs.get(name);

  return {
    openapi: '3.1.0',
    info: {
      title: 'CassavaScope API',
      version,
      description:
        'The HTTP API of CassavaScope: images and folders, prediction tasks, results with their review, CSV export ' +
        'and the server status. JSON in and out except uploads (multipart/form-data) and exports (CSV). Every path ' +
        'ends with `/` (the same path without it answers the same). Errors are `{"code", "detail", ...}`. This ' +
        "document is generated from the zod schemas the server validates requests with and the contract's response " +
        'schemas; docs/api.md explains the rules behind each call.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'images', description: 'The library: listing, uploads (files or a ZIP), delete' },
      { name: 'folders', description: 'Folders and moving images between them' },
      { name: 'tasks', description: 'Prediction and segmentation tasks: create, follow, rename, cancel, delete' },
      { name: 'predictions', description: 'Results, summary, CSV export, single predictions, review' },
      { name: 'status', description: 'Server status and live endpoint checks' },
      { name: 'media', description: 'Stored originals, thumbnails and result images' },
      { name: 'reference', description: 'This document and its reference page' },
    ],
    paths,
    components: { schemas },
  };
}

function describe(method: string, url: string, d: RouteDoc, inputs: SchemaSet, outputs: SchemaSet): Pending {
  const opId = operationId(method, url);
  const tag = d.tag ?? (url.startsWith('/media/') ? 'media' : (url.split('/')[2] ?? 'api'));
  const operation: Json = { operationId: opId, tags: [tag], summary: d.summary };
  if (d.description) operation.description = d.description;

  const parameters: Json[] = [];
  for (const name of pathParamNames(url)) {
    const declared = d.params?.[name];
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: declared ? standalone(declared, 'input') : { type: 'integer', minimum: 1 },
      ...(declared ? {} : { description: 'a positive integer id' }),
    });
  }
  if (d.query) {
    const q = standalone(d.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: 'query',
        required: q.required?.includes(name) ?? false,
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  if (parameters.length > 0) operation.parameters = parameters;

  let bodyId: string | undefined;
  if (d.body) bodyId = inputs.add(d.body, `${opId}_body`);
  let fieldsId: string | undefined;
  if (d.multipart) fieldsId = inputs.add(d.multipart.fields, `${opId}_fields`);

  // Ids in the path, the query, a body: each can be malformed (400). Declared path parameters (a stored key) cannot.
  const idParams = pathParamNames(url).filter((name) => !d.params?.[name]);
  const hasInput = idParams.length > 0 || d.query !== undefined || d.body !== undefined || d.multipart !== undefined;
  const responses: Record<string, ResponseDoc> = {};
  for (const [status, r] of Object.entries(d.responses)) responses[status] = r;
  if (hasInput) responses['400'] ??= 'error';
  if (pathParamNames(url).length > 0) responses['404'] ??= 'error';
  if (WRITES.has(method)) responses['403'] ??= 'error';
  // With sign-in on, every route but the public ones needs a session and a role (auth/role-policy.ts).
  if (accessFor(method, url, url) !== 'public') {
    responses['401'] ??= 'error';
    responses['403'] ??= 'error';
  }
  if (WRITES.has(method) && method !== 'DELETE') responses['507'] ??= 'error';
  responses['421'] ??= 'error';
  responses['500'] ??= 'error';
  const outputIds = new Map<string, string>();
  for (const [status, r] of Object.entries(responses)) {
    const schema = isZod(r) ? r : r !== null && typeof r === 'object' && 'json' in r ? r.json : undefined;
    if (schema && !NAME_OF.has(schema)) outputIds.set(status, outputs.add(schema, `${opId}_${status}`));
  }

  const fill = () => {
    if (bodyId) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: inputs.get(bodyId) } } };
    }
    if (d.multipart && fieldsId) {
      const fields = inputs.get(fieldsId) as { properties?: Json; required?: string[] };
      const properties: Json = {};
      const required: string[] = [];
      for (const [name, f] of Object.entries(d.multipart.files)) {
        const file = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };
        properties[name] = f.many
          ? { type: 'array', items: file, description: f.description }
          : { ...file, description: f.description };
        required.push(name);
      }
      Object.assign(properties, fields.properties ?? {});
      operation.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', properties, required: [...required, ...(fields.required ?? [])] },
          },
        },
      };
    }
    const out: Record<string, Json> = {};
    for (const status of Object.keys(responses).sort()) {
      const r = responses[status]!;
      const text = STATUS_TEXT[Number(status)] ?? 'Answer';
      const jsonOf = (schema: z.ZodType) => {
        const name = NAME_OF.get(schema);
        return { 'application/json': { schema: name ? ref(name) : outputs.get(outputIds.get(status)!) } };
      };
      if (r === null) out[status] = { description: text };
      else if (r === 'error')
        out[status] = { description: text, content: { 'application/json': { schema: ref('Error') } } };
      else if (isZod(r)) out[status] = { description: text, content: jsonOf(r) };
      else if ('json' in r) out[status] = { description: r.description, content: jsonOf(r.json) };
      else
        out[status] = {
          description: r.description,
          content: { [r.content]: { schema: r.schema ?? { type: 'string' } } },
        };
    }
    operation.responses = out;
  };
  return { path: openApiPath(url), method, operation, fill };
}
