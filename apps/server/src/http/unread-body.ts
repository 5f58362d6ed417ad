import type { FastifyInstance } from 'fastify';

/** A remainder up to this size is read and dropped so the connection stays usable; a larger one closes it. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** A client still sending after this long once answered loses the connection. */
const DRAIN_MAX_MS = 10_000;

/**
 * An answer sent before the request body has arrived in full (a 413 for too many fields, a 400 for a
 * malformed part, a 403 or 421 refusal) leaves the rest of the body on the connection: unread, it stalls the
 * next request on the same keep-alive connection (measured: 73 s, then a reset). The rest is read and
 * dropped when it is small, and the connection is closed after the answer when it is large or unknown.
 */
export function registerUnreadBodyHandling(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (
      !req.raw.complete &&
      remainingBytes(req.raw.headers['content-length'], req.raw.socket?.bytesRead) > DRAIN_MAX_BYTES
    ) {
      reply.header('Connection', 'close');
    }
    return payload;
  });
  app.addHook('onResponse', async (req) => {
    const raw = req.raw;
    if (raw.complete || raw.destroyed) return;
    const socket = raw.socket;
    const timer = setTimeout(() => socket?.destroy(), DRAIN_MAX_MS);
    timer.unref();
    let drained = 0;
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) socket?.destroy();
    });
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
    // Parsers stopped reading (unpiped, paused): let the bytes flow to nowhere.
    raw.unpipe();
    raw.resume();
  });
}

/** What is left to arrive of a body (an estimate: bytesRead counts the headers too); unknown is infinite. */
function remainingBytes(contentLength: string | undefined, bytesRead: number | undefined): number {
  if (contentLength === undefined || !/^\d+$/.test(contentLength)) return Number.POSITIVE_INFINITY;
  return Math.max(0, Number(contentLength) - (bytesRead ?? 0));
}
