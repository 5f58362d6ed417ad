import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formWith, makeJpeg, makePng } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let server: TestServer;
let jpeg: Buffer;
let image: any;

beforeAll(async () => {
  server = await startTestServer();
  jpeg = await makeJpeg({ seed: 1, width: 120, height: 90 });
  const res = await server.json('/api/images/upload-files/', {
    method: 'POST',
    body: formWith([
      { name: 'a.jpg', data: jpeg },
      { name: 'b.png', data: await makePng({ seed: 2 }) },
    ]),
  });
  image = res.body.uploaded[0];
});
afterAll(async () => {
  await server.close();
});

describe('GET /media/<key>', () => {
  it('streams the original byte for byte with its type, nosniff and immutable caching', async () => {
    const res = await server.request(image.image_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers.get('content-length'))).toBe(jpeg.length);
    const body = Buffer.from(await res.arrayBuffer());
    expect(crypto.createHash('sha256').update(body).digest('hex')).toBe(image.sha256);
  });

  it('serves the WebP thumbnail and answers 304 to a matching If-None-Match', async () => {
    const res = await server.request(image.thumbnail_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const again = await server.request(image.thumbnail_url, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves single byte ranges where the storage supports them, and 416 outside the file', async () => {
    if (server.ctx.storage.getRange === undefined) return; // object storage: whole files only
    const part = await server.request(image.image_url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${jpeg.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(jpeg.subarray(10, 20));
    const tail = await server.request(image.image_url, { headers: { range: 'bytes=-5' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(jpeg.subarray(jpeg.length - 5));
    const open = await server.request(image.image_url, { headers: { range: `bytes=${jpeg.length - 3}-` } });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(jpeg.subarray(jpeg.length - 3));
    const outside = await server.request(image.image_url, { headers: { range: `bytes=${jpeg.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${jpeg.length}`);
    expect(((await outside.json()) as { code: string }).code).toBe('range_not_satisfiable');
    const multi = await server.request(image.image_url, { headers: { range: 'bytes=0-1,5-6' } });
    expect(multi.status).toBe(200);
    expect((await multi.arrayBuffer()).byteLength).toBe(jpeg.length);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await server.request(image.image_url, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    '/media/originals/00/doesnotexist.jpg',
    '/media/../cassavascope.db',
    '/media/%2e%2e/cassavascope.db',
    '/media/originals/%2e%2e/%2e%2e/cassavascope.db',
    '/media/..%2fcassavascope.db',
    '/media/%2Fetc%2Fpasswd',
    '/media/',
    '/media/tmp',
  ])('answers 404 JSON for %s and never reads outside the blobs', async (p) => {
    // The database file exists beside blobs/: a traversal would find it. (On PostgreSQL + S3 there is
    // none: open-for-append creates an empty decoy and never changes an existing file.)
    await (await fs.open(path.join(server.dataDir, 'cassavascope.db'), 'a')).close();
    const res = await server.request(p);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string };
    expect(body.code).toBe('not_found');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
