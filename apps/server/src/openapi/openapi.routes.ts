import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, otherContent } from './route-doc.js';

/** The server's version, the document's `info.version`. */
export const VERSION = (
  JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Swagger UI's files, served from node_modules (nothing comes from a CDN). */
const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The page's own start-up script: a file, so the page's Content-Security-Policy needs no inline script. */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: false,
    filter: true,
    validatorUrl: null,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>CassavaScope API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

/**
 * Scripts and styles only from this server (no inline ones: Swagger UI sets its style values through the DOM, which
 * needs none); the API itself is the only place the page may call.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET /api/openapi.json` (the document of every route registered, from @fastify/swagger, registered in app.ts)
 * and the reference page `/api/docs/`.
 */
export async function openapiRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  let document: string | undefined;

  const openapiSchema = {
    tags: ['reference'],
    summary: 'This OpenAPI 3.1 document',
    response: { 200: otherContent('application/json', 'The OpenAPI document', z.object({}).loose()) },
  };
  app.get('/openapi.json', { schema: openapiSchema }, async (_req, reply) => {
    // Built once, on first request: by then every route is registered.
    document ??= JSON.stringify(app.swagger());
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(document);
  });

  const pageSchema = {
    tags: ['reference'],
    summary: 'The API reference page (Swagger UI over this document)',
    response: { 200: otherContent('text/html', 'The page') },
  };
  app.get('/docs/', { schema: pageSchema }, async (_req, reply) =>
    reply
      .header('Content-Security-Policy', CSP)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(PAGE),
  );

  const filesSchema = {
    tags: ['reference'],
    summary: "The reference page's scripts, styles and icon",
    params: z.object({ '*': z.string().meta({ enum: ['init.js', ...Object.keys(ASSETS)] }) }),
    response: {
      200: otherContent('*/*', 'The file', z.string().meta({ format: 'binary' })),
      404: errorResponse('`not_found`: no such file'),
    },
  };
  app.get('/docs/*', { schema: filesSchema }, async (req, reply) => {
    const name = req.params['*'];
    if (name === 'init.js')
      return reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(INIT_JS);
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) return reply.status(404).send({ code: 'not_found', detail: 'No such file' });
    return reply
      .type(type)
      .header('Cache-Control', 'public, max-age=3600')
      .send(fs.createReadStream(path.join(SWAGGER_DIR, name)));
  });
}
