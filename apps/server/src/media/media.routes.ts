import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { errorResponse, noBody, otherContent } from '../openapi/route-doc.js';
import { isValidKey } from '../storage/blob-storage.js';
import { presignsMedia } from '../storage/media-urls.js';

/**
 * Stored blobs are content-addressed (or versioned): a URL's bytes never change. With sign-in on they are
 * `private`: only the signed-in browser keeps them, never a shared cache.
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const IMMUTABLE_PRIVATE = 'private, max-age=31536000, immutable';
/**
 * With sign-in on and a bucket browsers can reach (OSS_BASE_URL), a signed-in request for a file is redirected to
 * a presigned URL of the bucket valid this long; the browser keeps the redirect for half of it.
 */
const PRESIGNED_SECONDS = 600;

/**
 * One `bytes=` range of an object of `size` bytes, inclusive; 'unsatisfiable' when it lies outside;
 * null when absent or not a single range (then the whole object is sent, as RFC 9110 allows).
 */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2])); // suffix: the last N bytes
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/**
 * `GET|HEAD /media/<key>`: streams one stored blob (single byte ranges too, where the storage supports
 * them). Only keys that pass `isValidKey` reach the storage, and the storage maps a key to a file
 * itself: no request path ever becomes a file path.
 */
export async function mediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const binary = z.string().meta({ format: 'binary' });
  const mediaSchema = {
    summary: 'A stored file (original, thumbnail or result image) by the key in its URL',
    description:
      'Immutable (content-addressed or versioned keys): long-lived cache headers, an ETag, and single byte ranges where the storage supports them.',
    params: z.object({ '*': z.string().meta({ description: 'the stored key, e.g. originals/ab/abcd....jpg' }) }),
    response: {
      200: otherContent('*/*', 'The file, with its Content-Type', binary),
      206: otherContent('*/*', 'One byte range of the file (Range: bytes=...)', binary),
      // With sign-in on and OSS_BASE_URL set: Location is a presigned URL of the object store, valid 10 minutes.
      302: noBody,
      304: noBody,
      404: errorResponse('`not_found`: no such file'),
      416: errorResponse('`range_not_satisfiable`'),
    },
  };
  const presigning = presignsMedia(ctx.config, ctx.storage);
  app.get<{ Params: { '*': string } }>('/*', { schema: mediaSchema }, async (req, reply) => {
    const key = req.params['*'];
    if (presigning && isValidKey(key)) {
      // The session was checked before this handler (auth/role-policy.ts); the bucket serves the bytes.
      const location = await ctx.storage.presignedUrl!(key, PRESIGNED_SECONDS);
      return reply
        .status(302)
        .header('Location', location)
        .header('Cache-Control', `private, max-age=${PRESIGNED_SECONDS / 2}`)
        .send();
    }
    const blob = isValidKey(key) ? await ctx.storage.get(key) : null;
    if (!blob) return reply.status(404).send({ code: 'not_found', detail: 'No such file' });
    const etag = `"${key.slice(key.lastIndexOf('/') + 1)}"`;
    reply
      .header('Cache-Control', ctx.config.auth.enabled ? IMMUTABLE_PRIVATE : IMMUTABLE)
      .header('ETag', etag)
      .type(blob.contentType);
    if (ctx.storage.getRange) reply.header('Accept-Ranges', 'bytes');
    if (req.headers['if-none-match'] === etag) {
      blob.stream.destroy();
      return reply.status(304).send();
    }
    const range = ctx.storage.getRange ? parseRange(req.headers.range, blob.size) : null;
    if (range === 'unsatisfiable') {
      blob.stream.destroy();
      return reply
        .status(416)
        .header('Content-Range', `bytes */${blob.size}`)
        .type('application/json; charset=utf-8')
        .send({ code: 'range_not_satisfiable', detail: `The file has ${blob.size} bytes` });
    }
    if (range && ctx.storage.getRange) {
      const part = await ctx.storage.getRange(key, range.start, range.end);
      if (part) {
        blob.stream.destroy();
        return reply
          .status(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${blob.size}`)
          .header('Content-Length', String(range.end - range.start + 1))
          .send(part);
      }
    }
    return reply.header('Content-Length', String(blob.size)).send(blob.stream);
  });
}
