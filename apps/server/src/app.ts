import { createRequire } from 'node:module';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import { CONTRACT_HEADER, CONTRACT_VERSION } from '@cassavascope/contract';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { registerAuth } from './auth/auth-hook.js';
import { authRoutes } from './auth/auth.routes.js';
import { ensureFirstAdmin } from './auth/first-admin.js';
import type { AppContext } from './context.js';
import { clientErrorHandler, frameworkError, registerErrorHandler } from './http/error-handler.js';
import { registerCloseIdleOnShutdown } from './http/close-idle-on-shutdown.js';
import { registerUnreadBodyHandling } from './http/unread-body.js';
import { keepSentParams, zodValidatorCompiler } from './http/validation.js';
import { figuresRoutes } from './figures/figures.routes.js';
import { foldersRoutes } from './folders/folders.routes.js';
import { imagesRoutes } from './images/images.routes.js';
import { labelsRoutes } from './labels/labels.routes.js';
import { mediaRoutes } from './media/media.routes.js';
import { metadataRoutes } from './metadata/metadata.routes.js';
import { modelsRoutes } from './models/models.routes.js';
import { swaggerOptions } from './openapi/openapi-document.js';
import { openapiRoutes, VERSION } from './openapi/openapi.routes.js';
import { ApiDocRegistry } from './openapi/route-doc.js';
import { predictionsRoutes } from './predictions/predictions.routes.js';
import { registerRequestGuard } from './security/request-guard.js';
import { setSecurityHeaders } from './security/security-headers.js';
import { registerSpaceHooks } from './storage/disk-space.js';
import { statusRoutes } from './status/status.routes.js';
import { storageCheckRoutes } from './storage-check/storage-check.routes.js';
import { tasksRoutes } from './tasks/tasks.routes.js';
import { uploadsRoutes } from './uploads/uploads.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { webRoutes } from './web/web.routes.js';

/** JSON bodies are small (names, ids, parameters); uploads go through multipart with their own limit. */
const JSON_BODY_LIMIT = 5 * 1024 * 1024;

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Routes validate with zod, not JSON Schema, so Fastify's Ajv and fast-json-stringify compilers are
 * loaded only if a schema ever needs them: loading them in Fastify() cost ~80 ms of the cold start.
 */
function lazySchemaCompilers(): CompilersFactory {
  // Resolved from Fastify's own location: the same compiler packages it would load itself.
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  type Build = (...args: unknown[]) => unknown;
  const lazy =
    (pkg: string): Build =>
    (...args) =>
      (fromFastify(pkg) as () => Build)()(...args);
  return {
    buildValidator: lazy('@fastify/ajv-compiler') as CompilersFactory['buildValidator'],
    buildSerializer: lazy('@fastify/fast-json-stringify-compiler') as CompilersFactory['buildSerializer'],
  };
}

/**
 * Builds the HTTP app in an explicit order: plugins, hooks and error handling, then the API
 * features under /api, media under /media, and the web app last.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: true,
    // X-Forwarded-Proto / -For are believed only behind a proxy that sets them (TRUST_PROXY).
    trustProxy: ctx.config.auth.trustProxy,
    frameworkErrors: frameworkError,
    clientErrorHandler,
    schemaController: { compilersFactory: lazySchemaCompilers() },
    // Per-request log lines only at debug/trace (via logController: the top-level option is deprecated).
    logController: new LogController({
      disableRequestLogging: ctx.config.logLevel !== 'debug' && ctx.config.logLevel !== 'trace',
    }),
  });

  registerErrorHandler(app);
  // Before anything reads a body: unknown Host names and cross-site writes are refused untouched.
  registerRequestGuard(app, ctx.config);
  // Then, still before any body is read: sign-in and roles, for every route (auth/role-policy.ts).
  registerAuth(app, ctx);
  await ensureFirstAdmin(ctx);
  registerUnreadBodyHandling(app);
  registerSpaceHooks(app, ctx.space);
  // A JSON Content-Type with no body (DELETE, cancel from clients that always send the header) is no body,
  // as in Django REST Framework; anything else goes through Fastify's own safe JSON parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(req, text, done);
  });
  registerCloseIdleOnShutdown(app);
  app.addHook('onSend', async (req, reply, payload) => {
    // nosniff, Referrer-Policy, Permissions-Policy, and HSTS over HTTPS (the page's CSP: web/web.routes.ts).
    setSecurityHeaders(req, reply);
    // Says the body follows the contract's schemas: the web app then checks it against them.
    if (req.url.startsWith('/api/')) reply.header(CONTRACT_HEADER, CONTRACT_VERSION);
    return payload;
  });
  await app.register(multipart, {
    limits: {
      fileSize: ctx.config.maxUploadBytes,
      files: 10_000,
      fields: 100,
      fieldSize: 64 * 1024,
      parts: 10_100,
    },
  });

  app.setNotFoundHandler((req, reply) => {
    return reply.status(404).send({ code: 'not_found', detail: `No route for ${req.method} ${req.url.split('?')[0]}` });
  });

  // Routes declare zod schemas (`schema: {params, querystring, body, response}`): the input is validated with them
  // (400 `invalid` with `fields`), answers are sent as JSON as they are, and @fastify/swagger documents every route
  // registered from here on (GET /api/openapi.json).
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  keepSentParams(app);
  await app.register(swagger, swaggerOptions(VERSION));
  const apiDocs = new ApiDocRegistry();
  app.addHook('onRoute', apiDocs.onRoute);
  app.decorate('apiDocs', apiDocs);

  await app.register(
    async (api) => {
      await openapiRoutes(api);
      await statusRoutes(api, ctx);
      await figuresRoutes(api, ctx);
      await authRoutes(api, ctx);
      await usersRoutes(api, ctx);
      await imagesRoutes(api, ctx);
      await uploadsRoutes(api, ctx);
      await metadataRoutes(api, ctx);
      await labelsRoutes(api, ctx);
      await foldersRoutes(api, ctx);
      await tasksRoutes(api, ctx);
      await predictionsRoutes(api, ctx);
      await modelsRoutes(api, ctx);
      await storageCheckRoutes(api, ctx);
    },
    { prefix: '/api' },
  );
  await app.register(async (media) => mediaRoutes(media, ctx), { prefix: '/media' });
  await app.register(async (web) => webRoutes(web, ctx));
  return app;
}
