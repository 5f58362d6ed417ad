import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedState } from './helpers/data-dir.js';
import {
  formWith,
  makeGif,
  makeJpeg,
  makePng,
  makeTiff,
  makeTruncatedJpeg,
  makeWebp,
  SVG_BYTES,
  TEXT_BYTES,
} from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let server: TestServer;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

function upload(files: { name: string; data: Buffer }[], fields: Record<string, string> = {}) {
  return server.json('/api/images/upload-files/', { method: 'POST', body: formWith(files, fields) });
}

async function expectNothingStored(before?: Awaited<ReturnType<typeof storedState>>) {
  const now = await storedState(server);
  expect(now.tmp).toEqual([]);
  if (before) expect(now).toEqual(before);
  else expect(now).toEqual({ images: 0, blobs: [], tmp: [] });
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  // Each test starts from an empty library (through the API, so files go too).
  const all = await server.json('/api/images/?page_size=1000');
  for (const img of all.body.results) await server.request(`/api/images/${img.id}/`, { method: 'DELETE' });
  await server.ctx.db.kysely.deleteFrom('folders').execute();
});

describe('POST /images/upload-files/', () => {
  it('stores JPEG, PNG, WebP, TIFF and GIF with the format read from the bytes', async () => {
    const files = [
      { name: 'a.jpg', data: await makeJpeg({ seed: 1, width: 80, height: 60 }) },
      { name: 'b.png', data: await makePng({ seed: 2 }) },
      { name: 'c.webp', data: await makeWebp({ seed: 3 }) },
      { name: 'd.tif', data: await makeTiff({ seed: 4 }) },
      { name: 'e.gif', data: await makeGif({ seed: 5 }) },
      // PNG bytes under a JPEG name: the bytes decide.
      { name: 'liar.jpg', data: await makePng({ seed: 6 }) },
    ];
    const res = await upload(files);
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(6);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.errors).toEqual([]);
    expect(res.body.uploaded.map((i: any) => [i.name, i.format])).toEqual([
      ['a.jpg', 'jpeg'],
      ['b.png', 'png'],
      ['c.webp', 'webp'],
      ['d.tif', 'tiff'],
      ['e.gif', 'gif'],
      ['liar.jpg', 'png'],
    ]);
    const a = res.body.uploaded[0];
    expect(a).toMatchObject({
      width: 80,
      height: 60,
      size: files[0]!.data.length,
      sha256: sha(files[0]!.data),
      folderId: null,
    });
    expect(a).toMatchObject({ hasPPD: false, ppdValue: null, lastPrediction: null });
    expect(a.created_time).toMatch(/Z$/);
    expect(a.uploadDate).toBe(a.created_time);
    expect(a.image_url).toMatch(/^\/media\/originals\/.+\.jpg$/);
    expect(a.thumbnail_url).toMatch(/^\/media\/thumbs\/.+\.webp$/);
    // The stored original is byte-identical and the thumbnail is a WebP at most 400 px.
    const stored = await server.ctx.storage.getBuffer(a.image_url.replace('/media/', ''));
    expect(sha(stored!)).toBe(a.sha256);
    const thumb = await sharp((await server.ctx.storage.getBuffer(a.thumbnail_url.replace('/media/', '')))!).metadata();
    expect(thumb.format).toBe('webp');
    expect((await storedState(server)).tmp).toEqual([]);
    expect((await server.json('/api/images/')).body.count).toBe(6);
  });

  it('respects the EXIF orientation for width/height and the thumbnail', async () => {
    const data = await makeJpeg({ width: 80, height: 40, orientation: 6 });
    const res = await upload([{ name: 'rotated.jpg', data }]);
    expect(res.status).toBe(201);
    expect(res.body.uploaded[0]).toMatchObject({ width: 40, height: 80 });
    const thumb = await sharp(
      (await server.ctx.storage.getBuffer(res.body.uploaded[0].thumbnail_url.replace('/media/', '')))!,
    ).metadata();
    expect(thumb.height).toBeGreaterThan(thumb.width);
  });

  it('keeps Chinese and emoji names as sent, and finds them by search', async () => {
    const res = await upload([{ name: '木薯叶_病斑 🌿.jpg', data: await makeJpeg({ seed: 9 }) }]);
    expect(res.status).toBe(201);
    const img = res.body.uploaded[0];
    expect(img.name).toBe('木薯叶_病斑 🌿.jpg');
    expect((await server.json(`/api/images/${img.id}/`)).body.name).toBe('木薯叶_病斑 🌿.jpg');
    const found = await server.json(`/api/images/?search=${encodeURIComponent('病斑 🌿')}`);
    expect(found.body.results.map((i: any) => i.id)).toEqual([img.id]);
  });

  it.each([
    ['a text file named .jpg', 'notes.jpg', TEXT_BYTES],
    ['a truncated JPEG', 'cut.jpg', Buffer.alloc(0)],
    ['an SVG', 'drawing.svg', SVG_BYTES],
    ['an SVG named .png', 'drawing.png', SVG_BYTES],
    ['a zero-byte file', 'empty.jpg', Buffer.alloc(0)],
  ])('rejects %s alone with 415 not_an_image and stores nothing', async (label, name, bytes) => {
    const data = label === 'a truncated JPEG' ? await makeTruncatedJpeg() : bytes;
    const res = await upload([{ name, data }]);
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('not_an_image');
    expect(typeof res.body.detail).toBe('string');
    await expectNothingStored();
  });

  it('reports bad files per file and stores the good ones', async () => {
    const res = await upload([
      { name: 'good.jpg', data: await makeJpeg({ seed: 11 }) },
      { name: 'bad.jpg', data: TEXT_BYTES },
      { name: 'cut.jpg', data: await makeTruncatedJpeg({ seed: 12 }) },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(1);
    expect(res.body.uploaded.map((i: any) => i.name)).toEqual(['good.jpg']);
    expect(res.body.errors.map((e: any) => [e.name, e.code])).toEqual([
      ['bad.jpg', 'not_an_image'],
      ['cut.jpg', 'not_an_image'],
    ]);
    const state = await storedState(server);
    expect(state.images).toBe(1);
    expect(state.blobs).toHaveLength(2); // one original, one thumbnail
    expect(state.tmp).toEqual([]);
  });

  it('stores into folder_id; an unknown folder is 400 unknown_ids, a malformed one 400', async () => {
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: 'F' } })).body;
    const res = await upload([{ name: 'in.jpg', data: await makeJpeg({ seed: 20 }) }], {
      folder_id: String(folder.id),
    });
    expect(res.status).toBe(201);
    expect(res.body.uploaded[0].folderId).toBe(folder.id);
    const before = await storedState(server);
    const unknown = await upload([{ name: 'x.jpg', data: await makeJpeg({ seed: 21 }) }], { folder_id: '99999' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_ids', ids: [99999] });
    const bad = await upload([{ name: 'x.jpg', data: await makeJpeg({ seed: 21 }) }], { folder_id: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.folder_id).toBeTruthy();
    const badFlag = await upload([{ name: 'x.jpg', data: await makeJpeg({ seed: 21 }) }], { check_duplicate: 'maybe' });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.fields.check_duplicate).toBeTruthy();
    await expectNothingStored(before);
  });

  it('answers 400 without files and 415 for a non-multipart body', async () => {
    const none = await server.json('/api/images/upload-files/', {
      method: 'POST',
      body: formWith([], { folder_id: '' }),
    });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('invalid');
    const json = await server.json('/api/images/upload-files/', { method: 'POST', body: { files: [] } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('unsupported_media_type');
  });
});

describe('duplicates', () => {
  it('409 round trip: a name match in the target folder stores nothing, then skip or overwrite', async () => {
    const first = await upload([{ name: 'plot.jpg', data: await makeJpeg({ seed: 30 }) }]);
    const original = first.body.uploaded[0];
    const before = await storedState(server);
    const newBytes = await makeJpeg({ seed: 31, width: 90, height: 30 });
    const other = await makeJpeg({ seed: 32 });
    const conflict = await upload([
      { name: 'plot.jpg', data: newBytes },
      { name: 'new.jpg', data: other },
    ]);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'duplicate', duplicates: ['plot.jpg'] });
    expect(typeof conflict.body.detail).toBe('string');
    await expectNothingStored(before);

    const skip = await upload(
      [
        { name: 'plot.jpg', data: newBytes },
        { name: 'new.jpg', data: other },
      ],
      { duplicate_action: 'skip' },
    );
    expect(skip.status).toBe(201);
    expect(skip.body).toMatchObject({ count: 1, skipped: ['plot.jpg'], errors: [] });
    expect(skip.body.uploaded.map((i: any) => i.name)).toEqual(['new.jpg']);

    const overwrite = await upload([{ name: 'plot.jpg', data: newBytes }], { duplicate_action: 'overwrite' });
    expect(overwrite.status).toBe(201);
    expect(overwrite.body.count).toBe(1);
    const replaced = overwrite.body.uploaded[0];
    expect(replaced).toMatchObject({ id: original.id, name: 'plot.jpg', width: 90, height: 30, sha256: sha(newBytes) });
    expect(replaced.image_url).not.toBe(original.image_url);
    // The old bytes are gone from storage; the listing still has one plot.jpg.
    expect(await server.ctx.storage.exists(original.image_url.replace('/media/', ''))).toBe(false);
    const list = await server.json('/api/images/?search=plot');
    expect(list.body.count).toBe(1);
  });

  it('a byte match under another name is a duplicate, and skipped even with overwrite', async () => {
    const bytes = await makeJpeg({ seed: 40 });
    await upload([{ name: 'one.jpg', data: bytes }]);
    const conflict = await upload([{ name: 'copy.jpg', data: bytes }]);
    expect(conflict.status).toBe(409);
    expect(conflict.body.duplicates).toEqual(['copy.jpg']);
    const over = await upload([{ name: 'copy.jpg', data: bytes }], { duplicate_action: 'overwrite' });
    expect(over.status).toBe(201);
    expect(over.body).toMatchObject({ count: 0, uploaded: [], skipped: ['copy.jpg'] });
  });

  it('the same file sent again under its own name: 409, then overwrite replaces it in place (same id, files kept)', async () => {
    const bytes = await makeJpeg({ seed: 45 });
    const first = (await upload([{ name: 'again.jpg', data: bytes }])).body.uploaded[0];
    const conflict = await upload([{ name: 'again.jpg', data: bytes }]);
    expect(conflict.status).toBe(409);
    expect(conflict.body.duplicates).toEqual(['again.jpg']);
    const over = await upload([{ name: 'again.jpg', data: bytes }], { duplicate_action: 'overwrite' });
    expect(over.status).toBe(201);
    expect(over.body).toMatchObject({ count: 1, skipped: [] });
    expect(over.body.uploaded[0]).toMatchObject({ id: first.id, sha256: sha(bytes), hasPPD: false });
    // Same bytes, same content-addressed files: they must still be there.
    expect(await server.ctx.storage.exists(first.image_url.replace('/media/', ''))).toBe(true);
    expect((await server.request(first.image_url)).status).toBe(200);
    const skip = await upload([{ name: 'again.jpg', data: bytes }], { duplicate_action: 'skip' });
    expect(skip.body).toMatchObject({ count: 0, skipped: ['again.jpg'] });
  });

  it('the same name in another folder is not a duplicate', async () => {
    const f = (await server.json('/api/folders/', { method: 'POST', body: { name: 'Other' } })).body;
    await upload([{ name: 'same.jpg', data: await makeJpeg({ seed: 50 }) }]);
    const res = await upload([{ name: 'same.jpg', data: await makeJpeg({ seed: 51 }) }], { folder_id: String(f.id) });
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(1);
  });

  it('within one request a later file with the same name or bytes is a duplicate of the earlier one', async () => {
    const a = await makeJpeg({ seed: 60 });
    const files = [
      { name: 'x.jpg', data: a },
      { name: 'x.jpg', data: await makeJpeg({ seed: 61 }) },
      { name: 'y.jpg', data: a },
    ];
    const conflict = await upload(files);
    expect(conflict.status).toBe(409);
    expect(conflict.body.duplicates).toEqual(['x.jpg', 'y.jpg']);
    await expectNothingStored();
    const over = await upload(files, { duplicate_action: 'overwrite' });
    expect(over.status).toBe(201);
    expect(over.body).toMatchObject({ count: 1, skipped: ['x.jpg', 'y.jpg'] });
  });

  it('two requests racing with the same name (or bytes) store it once: the later one is answered 409 or skips', async () => {
    for (let round = 0; round < 3; round++) {
      const sameName = [await makeJpeg({ seed: 80 + round }), await makeJpeg({ seed: 90 + round })];
      const racing = await Promise.all(sameName.map((data) => upload([{ name: `race-${round}.jpg`, data }])));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
      const sameBytes = await makeJpeg({ seed: 100 + round });
      const skipping = await Promise.all(
        [`twin-a-${round}.jpg`, `twin-b-${round}.jpg`].map((name) =>
          upload([{ name, data: sameBytes }], { duplicate_action: 'skip' }),
        ),
      );
      expect(skipping.map((r) => r.status)).toEqual([201, 201]);
      expect(skipping.map((r) => r.body.count).sort()).toEqual([0, 1]);
    }
    const names = (await server.json('/api/images/?page_size=100')).body.results.map((i: any) => i.name).sort();
    expect(names.filter((n: string) => n.startsWith('race-'))).toEqual(['race-0.jpg', 'race-1.jpg', 'race-2.jpg']);
    expect(names.filter((n: string) => n.startsWith('twin-'))).toHaveLength(3);
    // The losers' files are gone; every stored file belongs to a row.
    const rows = await server.ctx.db.kysely.selectFrom('images').select(['blob_key', 'thumb_key']).execute();
    const state = await storedState(server);
    expect(state.blobs.sort()).toEqual([...new Set(rows.flatMap((r) => [r.blob_key, r.thumb_key]))].sort());
    expect(state.tmp).toEqual([]);
  });

  it("check_duplicate='0' stores everything, and deleting one copy keeps the shared file", async () => {
    const bytes = await makeJpeg({ seed: 70 });
    await upload([{ name: 'dup.jpg', data: bytes }]);
    const res = await upload(
      [
        { name: 'dup.jpg', data: bytes },
        { name: 'dup.jpg', data: bytes },
      ],
      { check_duplicate: '0' },
    );
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(2);
    const ids = res.body.uploaded.map((i: any) => i.id);
    expect((await server.json('/api/images/')).body.count).toBe(3);
    for (const id of ids) expect((await server.request(`/api/images/${id}/`, { method: 'DELETE' })).status).toBe(204);
    const state = await storedState(server);
    expect(state.images).toBe(1);
    expect(state.blobs).toHaveLength(2);
  });
});

describe('POST /images/ (one file)', () => {
  it('stores one file with an optional name and answers 201 with the Image', async () => {
    const form = formWith([{ field: 'file', name: 'raw.jpg', data: await makeJpeg({ seed: 80 }) }], {
      name: 'renamed.jpg',
    });
    const res = await server.json('/api/images/', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'renamed.jpg', format: 'jpeg' });
    expect((await server.json(`/api/images/${res.body.id}/`)).body).toEqual(res.body);
  });

  it('answers 409 for a duplicate, 201 on overwrite, 415 for a non-image, 200 with the existing image on skip', async () => {
    const bytes = await makeJpeg({ seed: 81 });
    const first = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'one.jpg', data: bytes }]),
    });
    expect(first.status).toBe(201);
    const dup = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'one.jpg', data: bytes }]),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.duplicates).toEqual(['one.jpg']);
    const skip = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'one.jpg', data: bytes }], { duplicate_action: 'skip' }),
    });
    expect(skip.status).toBe(200);
    expect(skip.body.id).toBe(first.body.id);
    const over = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'one.jpg', data: await makeJpeg({ seed: 84 }) }], {
        duplicate_action: 'overwrite',
      }),
    });
    expect(over.status).toBe(201);
    expect(over.body.id).toBe(first.body.id);
    const before = await storedState(server);
    const bad = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'x.gif', data: SVG_BYTES }]),
    });
    expect(bad.status).toBe(415);
    expect(bad.body.code).toBe('not_an_image');
    await expectNothingStored(before);
    const two = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([
        { field: 'file', name: 'a.jpg', data: await makeJpeg({ seed: 82 }) },
        { field: 'file', name: 'b.jpg', data: await makeJpeg({ seed: 83 }) },
      ]),
    });
    expect(two.status).toBe(413);
    await expectNothingStored(before);
  });
});

describe('request limits', () => {
  it('more than 1000 files in one request is a 413 and stores nothing', async () => {
    const files = Array.from({ length: 1001 }, (_, i) => ({ name: `t${i}.jpg`, data: TEXT_BYTES }));
    const res = await upload(files);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('too_large');
    await expectNothingStored();
  });
});

describe('MAX_UPLOAD_MB', () => {
  it('answers 413 too_large for a bigger file and keeps nothing', async () => {
    const small = await startTestServer({ MAX_UPLOAD_MB: '0.05' });
    try {
      const big = await makeJpeg({ width: 400, height: 400, noise: 40, seed: 90 });
      expect(big.length).toBeGreaterThan(0.05 * 1024 * 1024);
      const res = await small.json('/api/images/upload-files/', {
        method: 'POST',
        body: formWith([
          { name: 'ok.jpg', data: await makeJpeg({ seed: 91 }) },
          { name: 'big.jpg', data: big },
        ]),
      });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('too_large');
      expect(await storedState(small)).toEqual({ images: 0, blobs: [], tmp: [] });
    } finally {
      await small.close();
    }
  });
});

describe('a folder deleted while an upload into it is being decoded', () => {
  it('answers 201 or 400 unknown_ids, never a 500, and leaves no image in a missing folder', async () => {
    const files = await Promise.all(
      [0, 1, 2, 3].map((i) => makeJpeg({ seed: 300 + i, width: 1600, height: 1100, noise: 20 })),
    );
    for (const delay of [0, 10, 20, 40, 80]) {
      const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: `Racing ${delay}` } })).body;
      const uploading = upload(
        files.map((data, i) => ({ name: `race-${delay}-${i}.jpg`, data })),
        { folder_id: String(folder.id), check_duplicate: '0' },
      );
      await new Promise((r) => setTimeout(r, delay));
      expect((await server.request(`/api/folders/${folder.id}/?images=delete`, { method: 'DELETE' })).status).toBe(204);
      const res = await uploading;
      expect([201, 400]).toContain(res.status);
      if (res.status === 400) expect(res.body).toMatchObject({ code: 'unknown_ids', ids: [folder.id] });
      const stray = await server.ctx.db.kysely
        .selectFrom('images')
        .select('id')
        .where('folder_id', '=', folder.id)
        .execute();
      expect(stray).toEqual([]);
    }
    expect((await storedState(server)).tmp).toEqual([]);
  });
});
