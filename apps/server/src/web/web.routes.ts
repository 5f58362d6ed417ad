import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { mediaOrigins } from '../storage/media-urls.js';
import { CSP_NONCE_PLACEHOLDER, newCspNonce, webAppCsp } from '../security/security-headers.js';
import { WebFiles } from './web-files.js';

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Serves the built web app (apps/web/dist) from the same port as the API. The page gets a strict
 * Content-Security-Policy with a nonce of its own in every response (security/security-headers.ts).
 */
export async function webRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const indexFile = path.join(WEB_DIST, 'index.html');
  // The object store's origins, learnt once (signing a URL is local work, but needs no repeating).
  let origins: Promise<string[]> | undefined;
  const imageOrigins = (): Promise<string[]> =>
    (origins ??= mediaOrigins(ctx.config, ctx.storage).catch((err: unknown) => {
      origins = undefined;
      ctx.log.warn({ err }, 'the object store origin for the page CSP is unknown: its images will be refused');
      return [];
    }));
  const sendIndex = async (_req: unknown, reply: FastifyReply) => {
    // Read on every request (a few KB): a built or rebuilt app is served without a restart, as its assets are.
    let html: string;
    try {
      html = await fs.promises.readFile(indexFile, 'utf8');
    } catch {
      return reply.status(503).type('text/plain').send('The web app is not built: run `npm run build`.');
    }
    const nonce = newCspNonce();
    return reply
      .header('Content-Security-Policy', webAppCsp(nonce, await imageOrigins()))
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  };
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  // Assets and other files of the build, by their exact names only (none while it is not built: 404).
  // (No static plugin: its scan of the build folder at start-up cost the server's cold start.)
  const files = new WebFiles(WEB_DIST);
  app.get('/*', (req, reply) => files.send(req, reply, (req.params as { '*': string })['*']));
}
