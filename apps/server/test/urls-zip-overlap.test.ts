import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedState } from './helpers/data-dir.js';
import { formWith, makeJpeg, makeZip } from './helpers/fixtures.js';
import { rawRequest } from './helpers/raw-request.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 26, item 7: the docs and the code agree. A path segment over 500 characters is 414 `too_large` wherever it
 * is (a GET fell through to the web app as a 404); a malformed percent-encoding in the query (`?search=%`) is 400
 * `invalid` naming the parameter (it was searched for literally); a ZIP whose entries overlap (3 000 entries
 * pointing at one stored file became 3 000 rows) is refused whole.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
});

describe('URLs the docs refuse', () => {
  // LONG: 600 letters; ID: a 600-digit id.
  it.each([
    ['GET', '/api/images/ID/'],
    ['GET', '/api/images/ID'],
    ['DELETE', '/api/images/ID/'],
    ['PUT', '/api/images/ID/labels/'],
    ['GET', '/api/folders/ID/images/'],
    ['GET', '/api/LONG/'],
    ['GET', '/api/images/1/LONG/'],
    ['GET', '/media/originals/LONG'],
    ['GET', '/LONG'],
  ])('%s %s (a 600-character segment) is 414 too_large', async (method, template) => {
    const p = template.replace('LONG', 'a'.repeat(600)).replace('ID', '1'.repeat(600));
    const res = await rawRequest(server.url, method, p);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'too_large' });
  });

  it('a 500-character segment is still routed (an unknown id: 404)', async () => {
    const res = await rawRequest(server.url, 'GET', `/api/${'a'.repeat(500)}/`);
    expect(res.status).toBe(404);
  });

  it.each([
    ['/api/images/?search=%', 'search'],
    ['/api/images/?search=a%2', 'search'],
    ['/api/images/?search=%zz', 'search'],
    ['/api/images/?search=%c0%ae', 'search'],
    ['/api/predictions/?search=%', 'search'],
    ['/api/tasks/?search=%', 'search'],
    ['/api/folders/?search=%', 'search'],
    ['/api/images/?page=1&ord%ering=name', 'ord%ering'],
  ])('%s is 400 invalid naming the parameter', async (p, field) => {
    const res = await rawRequest(server.url, 'GET', p);
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body);
    expect(body.code).toBe('invalid');
    expect(Object.keys(body.fields)).toEqual([field]);
  });

  it('a well-formed escape of % still searches for it', async () => {
    const res = await server.json('/api/images/?search=%25&x=a+b');
    expect(res.status).toBe(200);
  });
});

/**
 * The archive `makeZip` writes, with its central directory repeated `copies` times: every copy points at the
 * same local header, so the archive lists `copies` entries that share one file's bytes (renamed apart).
 */
function overlappingZip(zip: Buffer, copies: number): Buffer {
  const eocdAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const cdSize = zip.readUInt32LE(eocdAt + 12);
  const cdAt = zip.readUInt32LE(eocdAt + 16);
  const record = zip.subarray(cdAt, cdAt + cdSize);
  const nameLength = record.readUInt16LE(28);
  const records = Array.from({ length: copies }, (_, i) => {
    const r = Buffer.from(record);
    // Each copy its own name (same length): n0000.jpg, n0001.jpg, ...
    r.write(`n${String(i).padStart(nameLength - 5, '0')}.jpg`.slice(-nameLength), 46, 'latin1');
    return r;
  });
  const eocd = Buffer.from(zip.subarray(eocdAt));
  eocd.writeUInt16LE(copies, 8);
  eocd.writeUInt16LE(copies, 10);
  eocd.writeUInt32LE(cdSize * copies, 12);
  return Buffer.concat([zip.subarray(0, cdAt), ...records, eocd]);
}

describe('ZIP entries that overlap', () => {
  it('an archive whose entries all point at one file is refused whole: 400 invalid_zip, nothing stored', async () => {
    const jpeg = await makeJpeg({ width: 120, height: 80, seed: 5, noise: 20 });
    const zip = overlappingZip(await makeZip([{ name: 'p000000.jpg', data: jpeg, compress: false }]), 300);
    const res = await server.json('/api/images/upload-batch/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'crafted.zip', data: zip }]),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_zip');
    expect(res.body.detail).toMatch(/overlap/);
    expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
  });

  it('the same bytes in two entries of their own are two photos (no overlap)', async () => {
    const jpeg = await makeJpeg({ width: 120, height: 80, seed: 6, noise: 20 });
    const zip = await makeZip([
      { name: 'a.jpg', data: jpeg },
      { name: 'b.jpg', data: jpeg },
    ]);
    const res = await server.json('/api/images/upload-batch/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'twins.zip', data: zip }], { check_duplicate: '0' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.uploaded.map((i: { name: string }) => i.name).sort()).toEqual(['a.jpg', 'b.jpg']);
  });
});
