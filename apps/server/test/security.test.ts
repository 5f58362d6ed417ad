import net from 'node:net';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedState } from './helpers/data-dir.js';
import { formWith, makeJpeg, makeZip } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Every error is `{code, detail}` JSON, never a 500, never a stack trace. */
async function expectCleanError(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const body = (await res.json()) as { code: string; detail: string };
  expect(typeof body.code).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
  return body;
}

/** A multipart POST written by hand, so a test can stop half way and hang up. */
function openUpload(pathname: string, boundary: string, contentLength: number): http.ClientRequest {
  const url = new URL(server.url);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: pathname,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(contentLength) },
  });
  req.on('error', () => undefined);
  return req;
}

/** The stored state once the number of temp files satisfies `until` (or after 5 s). */
async function stateOnceTemp(until: (tempFiles: number) => boolean) {
  let state = await storedState(server);
  for (let i = 0; i < 200 && !until(state.tmp.length); i++) {
    await new Promise((r) => setTimeout(r, 25));
    state = await storedState(server);
  }
  return state;
}

describe('bad input across the images and folders API', () => {
  it.each([
    ['POST', '/api/folders/', '{"name":'],
    ['PUT', '/api/folders/1/', '{oops}'],
    ['POST', '/api/folders/1/add_images/', '[1,2'],
    ['POST', '/api/folders//add_images/', 'nul'],
  ])('%s %s with malformed JSON is 400 invalid_json', async (method, p, body) => {
    const res = await server.request(p, { method, body, headers: { 'content-type': 'application/json' } });
    const err = await expectCleanError(res, 400);
    expect(err.code).toBe('invalid_json');
  });

  it('a JSON body over the limit is 413', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) });
    const res = await server.request('/api/folders/', {
      method: 'POST',
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    await expectCleanError(res, 413);
  });

  it('an unknown route under /api is a 404 JSON', async () => {
    await expectCleanError(await server.request('/api/nothing-here/'), 404);
  });

  it.each([
    '/api/images/?page=1e9999',
    '/api/images/?page_size=%00',
    '/api/images/?search=' + 'x'.repeat(600),
    '/api/images/?day=2026-1-1',
    '/api/images/?folder=1.5',
    '/api/folders/?page=-1',
  ])('GET %s is a 400', async (p) => {
    await expectCleanError(await server.request(p), 400);
  });

  it('a multipart upload to a JSON route and JSON to an upload route change nothing', async () => {
    const before = await storedState(server);
    const form = formWith([{ name: 'a.jpg', data: await makeJpeg() }]);
    const toFolders = await server.request('/api/folders/', { method: 'POST', body: form });
    expect([400, 415]).toContain(toFolders.status);
    await expectCleanError(
      await server.request('/api/images/upload-batch/', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      415,
    );
    expect(await storedState(server)).toEqual(before);
  });

  it('a multipart body cut off half way stores nothing and leaves no temp file', async () => {
    const boundary = 'XBOUNDARYX';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const body = Buffer.concat([
      Buffer.from(head),
      (await makeJpeg({ width: 200, height: 200, noise: 20 })).subarray(0, 2000),
    ]);
    const res = await server.request('/api/images/upload-files/', {
      method: 'POST',
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    await expectCleanError(res, 400);
    expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
  });

  it('a client that disconnects in the middle of an upload leaves no temp file and no row', async () => {
    const boundary = 'ABORTBOUNDARY';
    const req = openUpload('/api/images/upload-files/', boundary, 10 * 1024 * 1024);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    req.write(await makeJpeg({ width: 300, height: 300, noise: 30 }));
    // Wait until the server has started a temp file for the part, then hang up.
    expect((await stateOnceTemp((n) => n > 0)).tmp).toHaveLength(1);
    req.destroy();
    expect(await stateOnceTemp((n) => n === 0)).toEqual({ images: 0, blobs: [], tmp: [] });
    // The server is still fine.
    expect((await server.json('/api/images/')).status).toBe(200);
  });

  it.each([
    ['stored', false],
    ['deflated', true],
  ])(
    'a ZIP upload (%s entries) broken off after its first entries leaves none of the entries staged so far',
    async (_label, compress) => {
      const boundary = 'ZIPABORTBOUNDARY';
      const jpegs = await Promise.all([1, 2, 3].map((seed) => makeJpeg({ width: 400, height: 300, noise: 30, seed })));
      const zip = await makeZip(jpegs.map((data, i) => ({ name: `e${i}.jpg`, data, compress })));
      const req = openUpload('/api/images/upload-batch/', boundary, zip.length * 2);
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.zip"\r\nContent-Type: application/zip\r\n\r\n`,
      );
      // Two whole entries and half of the third: the archive's temp file plus entries staged as it arrives.
      const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
      const third = zip.indexOf(signature, zip.indexOf(signature, zip.indexOf(signature) + 4) + 4);
      req.write(zip.subarray(0, third + 200));
      expect((await stateOnceTemp((n) => n >= 3)).tmp.length).toBeGreaterThanOrEqual(3);
      req.destroy();
      expect(await stateOnceTemp((n) => n === 0)).toEqual({ images: 0, blobs: [], tmp: [] });
      expect((await server.json('/api/images/')).status).toBe(200);
    },
  );
});

describe('malformed URLs and HTTP', () => {
  it.each(['/api/images/%zz/', '/api/images/%/', '/api/folders/%c0%ae/', '/media/%zz'])(
    '%s is a 400 in the {code, detail} shape',
    async (p) => {
      const err = await expectCleanError(await server.request(p), 400);
      expect(err.code).toBe('invalid');
    },
  );

  it('an over-long path id is a 414 in the {code, detail} shape', async () => {
    const err = await expectCleanError(
      await server.request(`/api/images/${'1'.repeat(600)}`, { method: 'DELETE' }),
      414,
    );
    expect(err.code).toBe('too_large');
  });

  it('a request that is not valid HTTP gets a JSON 400 and the server goes on', async () => {
    const url = new URL(server.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write('GET /api/status/ HTTP/1.1\r\nHost: x\r\nBad\u0001Header: y\r\n\r\n');
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/x-content-type-options: nosniff/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'invalid' });
    expect((await server.json('/api/status/')).status).toBe(200);
  });
});
