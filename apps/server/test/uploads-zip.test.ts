import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedState } from './helpers/data-dir.js';
import {
  clearUtf8Flags,
  formWith,
  makeBombZip,
  makeJpeg,
  makePng,
  makeTruncatedJpeg,
  makeZip,
  SVG_BYTES,
  TEXT_BYTES,
} from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let server: TestServer;

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

function uploadZip(zip: Buffer, fields: Record<string, string> = {}, target = server) {
  return target.json('/api/images/upload-batch/', {
    method: 'POST',
    body: formWith([{ field: 'file', name: 'batch.zip', data: zip, type: 'application/zip' }], fields),
  });
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  const all = await server.json('/api/images/?page_size=1000');
  for (const img of all.body.results) await server.request(`/api/images/${img.id}/`, { method: 'DELETE' });
  await server.ctx.db.kysely.deleteFrom('folders').execute();
});

describe('POST /images/upload-batch/', () => {
  it('imports the image entries by base name, flattening folders, and lists other entries as not_an_image', async () => {
    const zip = await makeZip([
      { name: 'field/plot1/a.jpg', data: await makeJpeg({ seed: 1 }) },
      { name: 'field/b.png', data: await makePng({ seed: 2 }), compress: false },
      { name: 'field/', data: Buffer.alloc(0) },
      { name: 'readme.txt', data: TEXT_BYTES },
      { name: 'logo.svg', data: SVG_BYTES },
      { name: 'broken.jpg', data: await makeTruncatedJpeg() },
      { name: '__MACOSX/field/._a.jpg', data: TEXT_BYTES },
    ]);
    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(2);
    expect(res.body.uploaded.map((i: any) => [i.name, i.format])).toEqual([
      ['a.jpg', 'jpeg'],
      ['b.png', 'png'],
    ]);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.errors.map((e: any) => [e.name, e.code])).toEqual([
      ['readme.txt', 'not_an_image'],
      ['logo.svg', 'not_an_image'],
      ['broken.jpg', 'not_an_image'],
    ]);
    const state = await storedState(server);
    expect(state.images).toBe(2);
    expect(state.tmp).toEqual([]);
  });

  it('imports ZIPs whose sizes follow the data (streamed ZIPs), stored or deflated, leaving no temp file', async () => {
    const jpegs = [await makeJpeg({ seed: 41 }), await makeJpeg({ seed: 42 }), await makeJpeg({ seed: 43 })];
    const res = await uploadZip(
      await makeZip([
        { name: 'a.jpg', data: jpegs[0]!, streamed: true },
        { name: 'b.jpg', data: jpegs[1]!, streamed: true, compress: false },
        { name: 'c.jpg', data: jpegs[2]! },
      ]),
    );
    expect(res.status).toBe(201);
    expect(res.body.uploaded.map((i: any) => i.name)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    const shas = await server.ctx.db.kysely.selectFrom('images').select(['name', 'sha256']).orderBy('name').execute();
    expect(shas.map((r) => r.sha256)).toEqual(jpegs.map(sha256));
    expect((await storedState(server)).tmp).toEqual([]);
  });

  it('the central directory decides: local headers that lie about sizes or CRC do not change what is stored', async () => {
    const first = await makeJpeg({ seed: 51 });
    const second = await makeJpeg({ seed: 52 });
    const zip = await makeZip([
      { name: 'first.jpg', data: first, compress: false },
      { name: 'second.jpg', data: second, compress: false },
    ]);
    // The first local header claims half the size (the bytes read from it would be a cut-off JPEG) and
    // the second a wrong CRC; the central directory keeps the true values.
    const local = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    zip.writeUInt32LE(Math.floor(first.length / 2), local + 18);
    zip.writeUInt32LE(Math.floor(first.length / 2), local + 22);
    const secondLocal = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), local + 30 + first.length);
    zip.writeUInt32LE((zip.readUInt32LE(secondLocal + 14) ^ 0xffff) >>> 0, secondLocal + 14);

    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(res.body.uploaded.map((i: any) => i.name)).toEqual(['first.jpg', 'second.jpg']);
    const rows = await server.ctx.db.kysely
      .selectFrom('images')
      .select(['name', 'sha256', 'size'])
      .orderBy('name')
      .execute();
    expect(rows).toEqual([
      { name: 'first.jpg', sha256: sha256(first), size: first.length },
      { name: 'second.jpg', sha256: sha256(second), size: second.length },
    ]);
    expect((await storedState(server)).tmp).toEqual([]);
  });

  it('a damaged entry (its bytes do not match its CRC-32) is a corrupt_entry, the others are stored', async () => {
    const good = await makeJpeg({ seed: 53 });
    const bad = await makeJpeg({ seed: 54 });
    const zip = await makeZip([
      { name: 'good.jpg', data: good, compress: false },
      { name: 'flipped.jpg', data: bad, compress: false },
    ]);
    // One byte in the middle of the second entry's data flips; both headers keep the original CRC.
    const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
    const second = zip.indexOf(signature, zip.indexOf(signature) + 4);
    const dataStart = second + 30 + zip.readUInt16LE(second + 26) + zip.readUInt16LE(second + 28);
    zip[dataStart + Math.floor(bad.length / 2)]! ^= 0x55;
    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(res.body.uploaded.map((i: any) => i.name)).toEqual(['good.jpg']);
    expect(res.body.errors).toEqual([expect.objectContaining({ name: 'flipped.jpg', code: 'corrupt_entry' })]);
    expect((await storedState(server)).tmp).toEqual([]);
  });

  it('keeps Chinese and emoji entry names', async () => {
    const res = await uploadZip(await makeZip([{ name: '试验田/木薯 🌱.jpg', data: await makeJpeg({ seed: 3 }) }]));
    expect(res.status).toBe(201);
    expect(res.body.uploaded[0].name).toBe('木薯 🌱.jpg');
  });

  it('reads GBK-encoded names written without the UTF-8 flag (Chinese Windows)', async () => {
    // "病叶.jpg" in GBK is 6 bytes + ".jpg"; write a same-length ASCII placeholder and patch the bytes.
    const gbk = Buffer.from([0xb2, 0xa1, 0xd2, 0xb6, 0x2e, 0x6a, 0x70, 0x67]);
    const zip = await makeZip([{ name: 'QQQQ.jpg', data: await makeJpeg({ seed: 4 }) }]);
    for (let at = zip.indexOf('QQQQ.jpg'); at !== -1; at = zip.indexOf('QQQQ.jpg', at + 1)) gbk.copy(zip, at);
    const res = await uploadZip(clearUtf8Flags(zip));
    expect(res.status).toBe(201);
    expect(res.body.uploaded[0].name).toBe('病叶.jpg');
  });

  it('never writes outside the data folder for ../ and absolute entry names', async () => {
    const parent = path.dirname(server.dataDir);
    const zip = await makeZip([
      { name: '../../evil-zip-entry.jpg', data: await makeJpeg({ seed: 5 }) },
      { name: '/tmp/abs-zip-entry.png', data: await makePng({ seed: 6 }) },
      { name: '..\\..\\win-zip-entry.jpg', data: await makeJpeg({ seed: 7 }) },
    ]);
    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(res.body.uploaded.map((i: any) => i.name).sort()).toEqual([
      'abs-zip-entry.png',
      'evil-zip-entry.jpg',
      'win-zip-entry.jpg',
    ]);
    for (const f of ['evil-zip-entry.jpg', 'win-zip-entry.jpg']) {
      await expect(fs.stat(path.join(parent, f))).rejects.toThrow();
      await expect(fs.stat(path.join(path.dirname(parent), f))).rejects.toThrow();
    }
    await expect(fs.stat('/tmp/abs-zip-entry.png')).rejects.toThrow();
  });

  it('refuses a zip bomb entry with a per-entry error and stores nothing of it', async () => {
    const zip = await makeBombZip(64);
    expect(zip.length).toBeLessThan(1024 * 1024);
    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(0);
    expect(res.body.errors).toEqual([{ name: 'bomb.jpg', code: 'suspicious_compression', detail: expect.any(String) }]);
    expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
  });

  it('an entry that inflates to more or fewer bytes than its header declares is a corrupt_entry', async () => {
    const good = await makeJpeg({ seed: 30 });
    const zip = await makeZip([
      { name: 'liar.jpg', data: await makeJpeg({ seed: 31, width: 200, height: 200, noise: 20 }) },
      { name: 'short.jpg', data: await makeJpeg({ seed: 32, width: 200, height: 200, noise: 20 }) },
      { name: 'good.jpg', data: good },
    ]);
    // Patch the declared uncompressed sizes (local header offset 22, central header offset 24).
    const patch = (name: string, delta: number) => {
      for (const [sig, off, nameAt] of [
        [0x04034b50, 22, 30],
        [0x02014b50, 24, 46],
      ] as const) {
        for (let i = 0; i + 4 < zip.length; i++) {
          if (zip.readUInt32LE(i) === sig && zip.toString('utf8', i + nameAt, i + nameAt + name.length) === name) {
            zip.writeUInt32LE(zip.readUInt32LE(i + off) + delta, i + off);
          }
        }
      }
    };
    patch('liar.jpg', -500);
    patch('short.jpg', +500);
    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(res.body.uploaded.map((i: any) => i.name)).toEqual(['good.jpg']);
    expect(res.body.errors.map((e: any) => [e.name, e.code])).toEqual([
      ['liar.jpg', 'corrupt_entry'],
      ['short.jpg', 'corrupt_entry'],
    ]);
    expect((await storedState(server)).tmp).toEqual([]);
  });

  it.each([
    ['random bytes', Buffer.from('definitely not a zip archive'), 415],
    ['a JPEG', Buffer.alloc(0), 415],
    ['a truncated ZIP', Buffer.alloc(0), 400],
    ['a ZIP cut inside a deflated entry', Buffer.alloc(0), 400],
    ['a ZIP header with garbage', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]), 400],
    ['an empty file', Buffer.alloc(0), 415],
  ])(
    'answers invalid_zip for %s (415 not a ZIP, 400 a broken one) and stores nothing',
    async (label, bytes, status) => {
      let data: Buffer = bytes;
      if (label === 'a JPEG') data = await makeJpeg({ seed: 8 });
      if (label === 'a truncated ZIP') {
        const whole = await makeZip([{ name: 'a.jpg', data: await makeJpeg({ seed: 9 }) }]);
        data = whole.subarray(0, whole.length - 30);
      }
      if (label === 'a ZIP cut inside a deflated entry') {
        // No central directory, and the archive ends while an entry is being inflated as it arrives.
        const whole = await makeZip([
          { name: 'a.jpg', data: await makeJpeg({ seed: 9, width: 400, height: 300, noise: 30 }) },
        ]);
        data = whole.subarray(0, Math.floor(whole.length / 2));
      }
      const res = await uploadZip(data);
      expect(res.status).toBe(status);
      expect(res.body.code).toBe('invalid_zip');
      expect(res.body.detail).toMatch(/ZIP/);
      expect(await storedState(server)).toEqual({ images: 0, blobs: [], tmp: [] });
    },
  );

  it('applies the duplicate rules: 409 stores nothing, then skip', async () => {
    const a = await makeJpeg({ seed: 10 });
    await uploadZip(await makeZip([{ name: 'a.jpg', data: a }]));
    const before = await storedState(server);
    const zip = await makeZip([
      { name: 'x/a.jpg', data: await makeJpeg({ seed: 11 }) },
      { name: 'b.jpg', data: await makeJpeg({ seed: 12 }) },
    ]);
    const conflict = await uploadZip(zip);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'duplicate', duplicates: ['a.jpg'] });
    expect(await storedState(server)).toEqual(before);
    const skip = await uploadZip(zip, { duplicate_action: 'skip' });
    expect(skip.status).toBe(201);
    expect(skip.body).toMatchObject({ count: 1, skipped: ['a.jpg'] });
  });

  it('imports into folder_id', async () => {
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: 'Zipped' } })).body;
    const res = await uploadZip(await makeZip([{ name: 'f.jpg', data: await makeJpeg({ seed: 13 }) }]), {
      folder_id: String(folder.id),
    });
    expect(res.status).toBe(201);
    expect(res.body.uploaded[0].folderId).toBe(folder.id);
    expect((await server.json(`/api/folders/${folder.id}/`)).body.imageCount).toBe(1);
  });

  it('answers 400 without a file', async () => {
    const res = await server.json('/api/images/upload-batch/', {
      method: 'POST',
      body: formWith([], { folder_id: '' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.file).toBeTruthy();
  });
});

describe('ZIP limits', () => {
  it('an entry larger than MAX_UPLOAD_MB is a per-entry too_large; a ZIP larger than it is a 413', async () => {
    const small = await startTestServer({ MAX_UPLOAD_MB: '0.2' });
    try {
      const big = await makeJpeg({ width: 600, height: 600, noise: 60, seed: 14 });
      expect(big.length).toBeGreaterThan(0.1 * 1024 * 1024);
      const zip = await makeZip([
        { name: 'ok.jpg', data: await makeJpeg({ seed: 15 }) },
        { name: 'big.jpg', data: Buffer.concat([big, big]), compress: true },
      ]);
      // ZIP itself under the limit only if the JPEG compresses; otherwise expect the 413 path below.
      const res = await uploadZip(zip, {}, small);
      if (zip.length <= 0.2 * 1024 * 1024) {
        expect(res.status).toBe(201);
        expect(res.body.errors.map((e: any) => [e.name, e.code])).toEqual([['big.jpg', 'too_large']]);
      } else {
        expect(res.status).toBe(413);
        expect(res.body.code).toBe('too_large');
      }
      const huge = await makeZip([{ name: 'huge.jpg', data: Buffer.concat([big, big, big]), compress: false }]);
      const tooBig = await uploadZip(huge, {}, small);
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.code).toBe('too_large');
      const state = await storedState(small);
      expect(state.tmp).toEqual([]);
      expect(state.images).toBe(zip.length <= 0.2 * 1024 * 1024 ? 1 : 0);
    } finally {
      await small.close();
    }
  });
});
