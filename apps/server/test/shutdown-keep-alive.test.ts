import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { makeJpeg } from './helpers/fixtures.js';
import { startTestServer } from './helpers/test-server.js';

/**
 * A shutdown waits for the requests in flight, then ends. A keep-alive connection whose request is answered
 * after the shutdown began used to stay open until the keep-alive timeout (72 s), and the shutdown with it:
 * CI's blob-race test timed out in its afterAll that way.
 */
describe('a shutdown with a request in flight on a keep-alive connection', () => {
  it('answers the request, then closes the connection and ends', async () => {
    const server = await startTestServer();
    const jpeg = await makeJpeg({ width: 64, height: 48, seed: 7 });
    const boundary = 'shutdownBoundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="late.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const agent = new http.Agent({ keepAlive: true });
    const url = new URL('/api/images/upload-files/', server.url);
    let socketClosed = false;
    let closing: Promise<void> | undefined;
    const answered = new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + jpeg.length + tail.length,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('socket', (socket) => socket.on('close', () => (socketClosed = true)));
      req.on('error', reject);
      // The first half now; once the server has the request, the shutdown begins, then the rest is sent.
      server.app.server.once('request', () => {
        closing = server.close();
        req.write(jpeg.subarray(jpeg.length >> 1));
        req.end(tail);
      });
      req.write(head);
      req.write(jpeg.subarray(0, jpeg.length >> 1));
    });

    expect(await answered).toBe(201);
    // Without the fix this waits for the 72 s keep-alive timeout, past the test's timeout.
    await closing;
    expect(socketClosed || (await socketCloses(agent))).toBe(true);
    agent.destroy();
  });
});

/** Resolves true once every socket the agent keeps is closed by the other side. */
function socketCloses(agent: http.Agent): Promise<boolean> {
  const sockets = Object.values(agent.freeSockets).flat();
  return Promise.all(sockets.map((s) => (s?.closed ? null : new Promise((r) => s?.once('close', r))))).then(() => true);
}
