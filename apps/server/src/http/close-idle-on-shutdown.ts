import type { FastifyInstance } from 'fastify';

/** How often a closing server looks for connections that have just become idle. */
const SWEEP_MS = 100;

/**
 * Node closes the connections that are idle when `close()` starts. One whose last response was still being
 * flushed at that moment becomes idle a moment later, and then stays open until the keep-alive timeout
 * (Fastify's default: 72 s), holding the shutdown (and, in the tests, `app.close()`) that long. While the server
 * closes, each connection is closed as soon as it is idle; a request still in flight keeps its connection
 * until it is answered.
 */
export function registerCloseIdleOnShutdown(app: FastifyInstance): void {
  app.addHook('preClose', (done) => {
    const server = app.server;
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
    done();
  });
}
