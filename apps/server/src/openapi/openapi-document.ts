import type { FastifyDynamicSwaggerOptions, SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { API_OBJECT_SCHEMAS } from '@cassavascope/contract';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessFor } from '../security/role-policy.js';

type Json = Record<string, unknown>;

/** The part of the server the document describes: the API and the stored files (not the web app's files). */
export const isDocumentedUrl = (url: string) => url.startsWith('/api/') || url.startsWith('/media/');

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
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

// The API's named objects (Error, Image, Task...) are components, referenced by `$ref` wherever a route answers
// with one. They are named in zod's global registry, which also holds every `.meta({description})`.
for (const [id, schema] of Object.entries(API_OBJECT_SCHEMAS as unknown as Record<string, z.ZodType>)) {
  z.globalRegistry.remove(schema).add(schema, { ...z.globalRegistry.get(schema), id });
}

const errorRef = { $ref: '#/components/schemas/Error' };
const zodTransform = createJsonSchemaTransform({ skipList: [] });
const zodTransformObject = createJsonSchemaTransformObject({});

/**
 * One route's operation: the provider turns its zod schemas into JSON Schema; then each answer gets its
 * description and media type, and the answers every route can give are added unless the route names them:
 * 421 (unknown Host) and 500 everywhere, 403 (cross-site) to writes, 507 (storage full) to writes other than DELETE,
 * 400 to routes with input, 404 to routes with a path parameter, 401 and 403 to routes that need a session when
 * sign-in is on (security/role-policy.ts). Routes outside /api and /media (the web app's files) are left out.
 */
const transform: SwaggerTransform = (document) => {
  const { url, route } = document;
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
  if (!isDocumentedUrl(url) || !document.schema || method === 'HEAD') return { schema: { hide: true }, url };
  const { schema } = zodTransform(document) as { schema: Json; url: string };
  // A wildcard (a stored key, a file name) cannot be malformed; ids, a query and a body can (400).
  const hasInput = Boolean((schema.params && !url.endsWith('*')) || schema.querystring || schema.body);
  const responses = { ...(schema.response as Record<string, Json> | undefined) };
  const hasPathParams = /[:*]/.test(url);
  if (hasInput) responses['400'] ??= errorRef;
  if (hasPathParams) responses['404'] ??= errorRef;
  if (WRITES.has(method)) responses['403'] ??= errorRef;
  if (accessFor(method, url, url) !== 'public') {
    responses['401'] ??= errorRef;
    responses['403'] ??= errorRef;
  }
  if (WRITES.has(method) && method !== 'DELETE') responses['507'] ??= errorRef;
  responses['421'] ??= errorRef;
  responses['500'] ??= errorRef;
  const out: Json = {};
  for (const status of Object.keys(responses).sort()) {
    const r = responses[status]!;
    const description = (r.description as string | undefined) ?? STATUS_TEXT[Number(status)] ?? 'Answer';
    if (r.content) out[status] = { ...r, description };
    else if (r.type === 'null') out[status] = { type: 'null', description };
    else out[status] = { description, content: { 'application/json': { schema: r } } };
  }
  const tag = url.startsWith('/media/') ? 'media' : (url.split('/')[2] ?? 'api');
  return {
    schema: { operationId: operationId(method, url), tags: [tag], ...schema, response: out },
    url,
  };
};

/**
 * The components (the named objects, as answered), and the wildcard of the reference page's files named `path`
 * (Fastify's `*`).
 */
const transformObject: SwaggerTransformObject = (documentObject) => {
  type Operation = { parameters?: { in: string; name: string }[] };
  const document = zodTransformObject(documentObject) as {
    components?: { schemas?: Json };
    paths?: Record<string, Record<string, Operation>>;
  };
  // The input twins of the named objects (the provider adds `ImageInput` beside `Image`) stay only where a request
  // body refers to one.
  const schemas = document.components?.schemas ?? {};
  const refsIn = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  const kept = new Set(refsIn(document.paths ?? {}));
  for (const name of kept) for (const ref of refsIn(schemas[name] ?? {})) kept.add(ref);
  for (const name of Object.keys(schemas)) if (name.endsWith('Input') && !kept.has(name)) delete schemas[name];
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const p of operation.parameters ?? []) if (p.in === 'path' && p.name === '*') p.name = 'path';
    }
    paths[path.replace('{*}', '{path}')] = operations;
  }
  document.paths = paths;
  return document as ReturnType<SwaggerTransformObject>;
};

/** @fastify/swagger's options: the OpenAPI 3.1 document of the routes the server registered. */
export function swaggerOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'CassavaScope API',
        version,
        description:
          'The HTTP API of CassavaScope: images and folders, prediction tasks, results with their review, CSV export ' +
          'and the server status. JSON in and out except uploads (multipart/form-data) and exports (CSV). Every path ' +
          'ends with `/` (the same path without it answers the same). Errors are `{"code", "detail", ...}`. This ' +
          'document is generated (@fastify/swagger, fastify-type-provider-zod) from the zod schemas each route ' +
          "declares and validates its input with, and the contract's response schemas; docs/api.md explains the " +
          'rules behind each call.',
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
    },
    transform,
    transformObject,
  };
}
