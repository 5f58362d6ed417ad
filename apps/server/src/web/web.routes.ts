import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { WebFiles } from './web-files.js';

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** The HTML gets a strict Content-Security-Policy: scripts and styles only from this origin. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Ant Design injects its CSS-in-JS styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built web app (apps/web/dist) from the same port as the API. */
export async function webRoutes(app: FastifyInstance): Promise<void> {
  const indexFile = path.join(WEB_DIST, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  const sendIndex = async (_req: unknown, reply: import('fastify').FastifyReply) => {
    if (!hasWeb) {
      return reply.status(503).type('text/plain').send('The web app is not built: run `npm run build`.');
    }
    return reply
      .header('Content-Security-Policy', CSP)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(fs.createReadStream(indexFile));
  };
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  if (hasWeb) {
    // Assets and other files of the build, by their exact names only.
    // (No static plugin: its scan of the build folder at start-up cost the server's cold start.)
    const files = new WebFiles(WEB_DIST);
    app.get('/*', (req, reply) => files.send(req, reply, (req.params as { '*': string })['*']));
  }
}
