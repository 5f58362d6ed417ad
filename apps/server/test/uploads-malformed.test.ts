import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedState } from './helpers/data-dir.js';
import { makeJpeg } from './helpers/fixtures.js';
import { multipartBody, RawConnection } from './helpers/raw-socket.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { MultipartHeaderCheck } from '../src/http/multipart-header-check.js';

/** Issue 13, point 4: every upload is answered, and an early answer does not poison the connection. */
let server: TestServer;
let jpeg: Buffer;
const B = 'XmalformedX';

beforeAll(async () => {
  server = await startTestServer();
  jpeg = await makeJpeg({ width: 64, height: 48, seed: 3 });
});
afterAll(async () => {
  await server?.close();
});

const filePart = (filename: string, field = 'files') => ({
  headers: `Content-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/jpeg`,
  body: jpeg,
});

async function postOn(conn: RawConnection, body: Buffer, pathname = '/api/images/upload-files/') {
  return conn.request('POST', pathname, { 'Content-Type': `multipart/form-data; boundary=${B}` }, body);
}

describe('a CR or LF inside a multipart file name', () => {
  it.each([
    ['CR LF', 'a\r\nb.jpg'],
    ['CR', 'a\rb.jpg'],
    ['LF', 'a\nb.jpg'],
    ['CR LF then a header-like rest', 'a\r\nX-Evil: 1\r\nb.jpg'],
    ['LF at the end', 'photo.jpg\n'],
  ])(
    '(%s) is answered 400 naming the field, nothing stored, and the connection serves the next request',
    async (_label, filename) => {
      const conn = await RawConnection.open(server.url);
      try {
        const res = await postOn(conn, multipartBody(B, [filePart(filename)]));
        expect(res, 'no answer').toBeDefined();
        expect(res!.status).toBe(400);
        const body = JSON.parse(res!.body);
        expect(body.code).toMatch(/^invalid/);
        expect(Object.keys(body.fields)).toEqual(['files']);
        expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
        if (!conn.isClosed) {
          const next = await conn.request('GET', '/api/status/', {});
          expect(next?.status).toBe(200);
        }
      } finally {
        conn.close();
      }
    },
  );

  it.each([
    ['3 MB', 3, 200],
    ['40 MB', 40, 200],
  ])(
    'with a %s file behind it, is answered before the body is read, and the next request is served',
    async (_l, mb) => {
      const conn = await RawConnection.open(server.url);
      try {
        const big = Buffer.concat([jpeg, Buffer.alloc(mb * 1024 * 1024, 7)]);
        const res = await postOn(conn, multipartBody(B, [{ ...filePart('a\nb.jpg'), body: big }]));
        expect(res?.status).toBe(400);
        expect(JSON.parse(res!.body).fields).toHaveProperty('files');
        // A small rest is drained (the connection stays open); a large one closes it after saying so.
        if (res!.headers.connection === 'close') {
          const again = await RawConnection.open(server.url);
          expect((await again.request('GET', '/api/status/', {}))?.status).toBe(200);
          again.close();
        } else {
          expect((await conn.request('GET', '/api/status/', {}))?.status).toBe(200);
        }
        expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
      } finally {
        conn.close();
      }
    },
  );

  it('a percent-encoded line break (filename*=) is refused the same way', async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const part = {
        headers: `Content-Disposition: form-data; name="files"; filename*=UTF-8''a%0D%0Ab.jpg\r\nContent-Type: image/jpeg`,
        body: jpeg,
      };
      const res = await postOn(conn, multipartBody(B, [part]));
      expect(res?.status).toBe(400);
      expect(JSON.parse(res!.body).fields).toHaveProperty('files');
      expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
    } finally {
      conn.close();
    }
  });
});

describe('an early answer leaves the keep-alive connection usable', () => {
  it('after a 413 for too many fields, the next POST on the same connection is served', async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const fields = Array.from({ length: 150 }, (_, i) => ({
        headers: `Content-Disposition: form-data; name="f${i}"`,
        body: 'x'.repeat(100),
      }));
      const first = await postOn(conn, multipartBody(B, [...fields, filePart('late.jpg')]));
      expect(first?.status).toBe(413);
      expect(conn.isClosed && first?.headers.connection !== 'close').toBe(false);
      if (conn.isClosed) return; // closed cleanly after saying so: the client opens a new connection
      const second = await postOn(conn, multipartBody(B, [filePart('after-413.jpg')]));
      expect(second, 'the request after the 413 was never answered').toBeDefined();
      expect(second!.status).toBe(201);
      expect(JSON.parse(second!.body).uploaded[0].name).toBe('after-413.jpg');
    } finally {
      conn.close();
      await server.json('/api/images/?page_size=1000').then(async (r) => {
        for (const i of r.body.results) await server.json(`/api/images/${i.id}/`, { method: 'DELETE' });
      });
    }
  });

  it('after a 403 cross-site refusal with a body, the next request on the connection is served', async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const body = multipartBody(B, [filePart('x.jpg')]);
      const refused = await conn.request(
        'POST',
        '/api/images/upload-files/',
        { 'Content-Type': `multipart/form-data; boundary=${B}`, Origin: 'https://evil.example' },
        body,
      );
      expect(refused?.status).toBe(403);
      const next = await conn.request('GET', '/api/images/', {});
      expect(next?.status).toBe(200);
      expect(JSON.parse(next!.body).count).toBe(0);
    } finally {
      conn.close();
    }
  });
});

describe('the part header check, however the body is cut into chunks', () => {
  const good = () =>
    multipartBody(B, [
      { headers: 'Content-Disposition: form-data; name="folder_id"', body: '3' },
      {
        headers: 'Content-Disposition: form-data; name="files"; filename="a \\"b\\".jpg"\r\nContent-Type: image/jpeg',
        body: Buffer.concat([jpeg, Buffer.from(`\r\n-${B}\r\n--`)]),
      },
      { headers: 'Content-Disposition: form-data; name="files"; filename="empty.jpg"', body: '' },
    ]);
  const bad = () =>
    multipartBody(B, [
      { headers: 'Content-Disposition: form-data; name="files"; filename="x.jpg"', body: jpeg },
      filePart('a\r\nb.jpg', 'photos'),
    ]);

  it('finds no problem in a valid body and the problem in a mangled one, at every split point', () => {
    for (const [body, expected] of [
      [good(), null],
      [bad(), 'photos'],
    ] as const) {
      for (let at = 0; at <= body.length; at += 7) {
        const check = new MultipartHeaderCheck(B);
        check.push(body.subarray(0, at));
        check.push(body.subarray(at));
        expect(check.problem?.field ?? null, `split at ${at}`).toBe(expected);
      }
      const bytewise = new MultipartHeaderCheck(B);
      for (let i = 0; i < body.length; i++) bytewise.push(body.subarray(i, i + 1));
      expect(bytewise.problem?.field ?? null).toBe(expected);
    }
  });
});
