import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

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
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      wildcard: false,
      index: false,
      // index.html is served below, with its CSP; a second route for it would clash at start.
      globIgnore: ['index.html'],
      setHeaders: (res, filePath) => {
        // Vite's hashed assets never change; index.html must always be revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  }
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
    app.get('/*', (req, reply) => {
      const rel = (req.params as { '*': string })['*'];
      return reply.sendFile(rel);
    });
  }
}
