import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { isValidKey } from '../storage/blob-storage.js';

/** Stored blobs are content-addressed (or versioned): a URL's bytes never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `GET|HEAD /media/<key>`: streams one stored blob. Only keys that pass `isValidKey` reach the
 * storage, and the storage maps a key to a file itself: no request path ever becomes a file path.
 */
export async function mediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { '*': string } }>('/*', async (req, reply) => {
    const key = req.params['*'];
    const blob = isValidKey(key) ? await ctx.storage.get(key) : null;
    if (!blob) return reply.status(404).send({ code: 'not_found', detail: 'No such file' });
    const etag = `"${key.slice(key.lastIndexOf('/') + 1)}"`;
    reply.header('Cache-Control', IMMUTABLE).header('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      blob.stream.destroy();
      return reply.status(304).send();
    }
    return reply.type(blob.contentType).header('Content-Length', String(blob.size)).send(blob.stream);
  });
}
