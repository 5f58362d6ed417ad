import type { FastifyRequest } from 'fastify';

/**
 * Aborts an upload whose client sends nothing for `idleMs` (UPLOAD_IDLE_SECONDS): without it, a stalled
 * upload held its temp files (half a 500 MB ZIP, measured 330 s) with no time limit. The client is told
 * with a 408 when it still reads; the request stream is then destroyed, which makes the intake remove every
 * temp file of the request, as for a client that hangs up. Returns the function that stops the watch.
 */
export function abortWhenIdle(req: FastifyRequest, idleMs: number): () => void {
  const raw = req.raw;
  if (raw.complete) return () => undefined;
  const onIdle = () => {
    req.log.warn({ idleMs }, 'upload aborted: the client sent nothing for too long');
    const socket = raw.socket;
    const body = JSON.stringify({
      code: 'timeout',
      detail: `The upload sent nothing for ${Math.round(idleMs / 1000)} s and was aborted`,
    });
    const abort = () => raw.destroy(Object.assign(new Error('upload idle timeout'), { code: 'ECONNRESET' }));
    if (!socket || socket.destroyed || !socket.writable) return abort();
    // The answer goes out first; a client that reads nothing either loses the connection a second later.
    const fallback = setTimeout(abort, 1000);
    fallback.unref();
    socket.end(
      `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
        `Referrer-Policy: same-origin\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => {
        clearTimeout(fallback);
        abort();
      },
    );
  };
  raw.setTimeout(idleMs, onIdle);
  const stop = () => {
    raw.off('timeout', onIdle);
    raw.socket?.setTimeout(0);
  };
  // Once the body is in, decoding and storing may take long without a byte on the wire: not idle.
  raw.once('end', stop);
  return stop;
}
