import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Content types of what a Vite build emits (anything else is sent as bytes). */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/**
 * The files of the web build, served by their exact relative names only: a request path is looked
 * up in the list, never joined onto the folder, so nothing outside it can be reached. The list is read
 * on the first request (not at start-up) and again when a name is missing (the build may have changed).
 */
export class WebFiles {
  private names: Set<string> | null = null;

  constructor(private readonly root: string) {}

  /** Sends `rel` (a path under the build folder) with validators and caching, or 404s. */
  async send(req: FastifyRequest, reply: FastifyReply, rel: string): Promise<FastifyReply> {
    if (!this.has(rel)) return notFound(reply);
    const file = path.join(this.root, rel);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return notFound(reply);
    }
    const etag = `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
    const lastModified = stat.mtime.toUTCString();
    // Vite's hashed assets never change; other files must be revalidated.
    if (rel.startsWith('assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    reply.header('Last-Modified', lastModified).header('ETag', etag);
    if (notModified(req, etag, stat.mtime)) return reply.status(304).send();
    return reply
      .type(CONTENT_TYPES[path.extname(rel).toLowerCase()] ?? 'application/octet-stream')
      .header('Content-Length', stat.size)
      .send(fs.createReadStream(file));
  }

  private has(rel: string): boolean {
    if (this.names?.has(rel)) return true;
    this.names = this.list();
    return this.names.has(rel);
  }

  private list(): Set<string> {
    try {
      const entries = fs.readdirSync(this.root, { recursive: true, withFileTypes: true });
      return new Set(
        entries
          .filter((e) => e.isFile())
          .map((e) =>
            path
              .relative(this.root, path.join(e.parentPath ?? e.path, e.name))
              .split(path.sep)
              .join('/'),
          )
          // Hidden files are never served (as the static plugin did).
          .filter((rel) => !rel.split('/').some((segment) => segment.startsWith('.'))),
      );
    } catch {
      return new Set();
    }
  }
}

function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

function notModified(req: FastifyRequest, etag: string, mtime: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t === etag || t === etag.slice(2);
    });
  }
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && Math.floor(mtime.getTime() / 1000) * 1000 <= sinceMs;
}
