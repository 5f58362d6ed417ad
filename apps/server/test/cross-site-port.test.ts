import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-request.js';
import { ADMIN, AUTH_ENV, signIn } from './helpers/sign-in.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 26, item 4: with sign-in on, a write whose `Origin` is another port of the same host (any other web
 * service on the machine, with the user's cookie) is 403 cross_origin: same origin means scheme, host and port.
 * The app's own origin, the Vite dev server (its proxy keeps Host and Origin) and an HTTPS proxy in front still
 * write.
 */
let server: TestServer;
let cookie: string;
let port: string;

beforeAll(async () => {
  server = await startTestServer({ ...AUTH_ENV, TRUST_PROXY: '1' });
  cookie = await signIn(server, ADMIN.username, ADMIN.password);
  port = new URL(server.url).port;
});
afterAll(async () => {
  await server?.close();
});

const postFolder = (headers: Record<string, string>) =>
  rawRequest(
    server.url,
    'POST',
    '/api/folders/',
    { cookie, 'content-type': 'application/json', ...headers },
    JSON.stringify({ name: `f ${Math.random()}` }),
  );

async function folderCount(): Promise<number> {
  return (await server.ctx.db.kysely.selectFrom('folders').select('id').execute()).length;
}

describe('Origin of another port, scheme or host', () => {
  it.each([
    ['another port of localhost', () => ({ host: `localhost:${port}`, origin: 'http://localhost:1234' })],
    ['another port of 127.0.0.1', () => ({ host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:1234' })],
    [
      'another loopback name on the same port',
      () => ({ host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` }),
    ],
    ['port 80 of the same host', () => ({ host: `localhost:${port}`, origin: 'http://localhost' })],
    ['a port on a proxied name', () => ({ host: 'localhost', origin: 'http://localhost:8081' })],
    [
      'a plain-HTTP page when the proxy says HTTPS',
      () => ({ host: 'localhost', origin: 'http://localhost', 'x-forwarded-proto': 'https' }),
    ],
  ])('%s: 403 cross_origin, nothing created', async (_label, headers) => {
    const before = await folderCount();
    const res = await postFolder(headers());
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe('cross_origin');
    expect(await folderCount()).toBe(before);
  });

  it.each([
    ['the app on its own origin', () => ({ host: `localhost:${port}`, origin: `http://localhost:${port}` })],
    ['the app by address', () => ({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })],
    ['the Vite dev server (Host and Origin kept)', () => ({ host: 'localhost:5173', origin: 'http://localhost:5173' })],
    [
      'an HTTPS proxy on the default port',
      () => ({ host: 'localhost', origin: 'https://localhost', 'x-forwarded-proto': 'https' }),
    ],
    ['an HTTPS proxy that does not say so', () => ({ host: 'localhost', origin: 'https://localhost' })],
    ['an HTTPS proxy on its own port', () => ({ host: 'localhost:8443', origin: 'https://localhost:8443' })],
  ])('%s: 201', async (_label, headers) => {
    const res = await postFolder(headers());
    expect(res.status, res.body).toBe(201);
  });
});
