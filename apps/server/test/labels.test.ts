import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formWith, makePng } from './helpers/fixtures.js';
import { makeSpecimenJpeg, uploadFiles } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { guardOf } from '../src/storage/blob-guard.js';
import { sweepOrphanBlobs } from '../src/maintenance/orphan-sweep.js';

/**
 * Labels (issue 23, api.md "Labels and lab models"): PUT / GET / DELETE /images/{id}/labels/, the has_labels
 * filter, labels going with their image, and the engine's proposal, through the real API, storage and engine.
 * Runs on SQLite and, in the scale-out pass, on PostgreSQL + S3.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  // Rows removed behind the API's back leave their label files: those go too, so each test counts its own.
  await server.ctx.db.kysely.deleteFrom('images').execute();
  await server.ctx.storage.delete(await labelBlobs());
});

/** A photo 480 x 320 stored with EXIF orientation 6: shown (and labelled) 320 wide, 480 high. */
async function uploadRotatedPhoto(seed = 1): Promise<{ id: number; width: number; height: number }> {
  const jpeg = await sharp(await makeSpecimenJpeg({ seed }))
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  const [image] = await uploadFiles(server.url, [{ name: `photo_${seed}_${Date.now()}.jpg`, bytes: jpeg }]);
  const row = (await server.json(`/api/images/${image!.id}/`)).body;
  return { id: row.id, width: row.width, height: row.height };
}

/** A grey label PNG: the left half background (1), a healthy band (2), a lesion square (3), a corner excluded (4). */
async function labelPng(width: number, height: number, fill?: (x: number, y: number) => number): Promise<Buffer> {
  const values = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      values[y * width + x] = fill
        ? fill(x, y)
        : x < width / 2
          ? 1
          : y < height / 4
            ? 2
            : y < height / 2
              ? 3
              : y >= height - 2 && x >= width - 2
                ? 4
                : 0;
    }
  return sharp(values, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .png()
    .toBuffer();
}

const putLabels = (id: number | string, data: Buffer | null, field = 'file', name = 'labels.png') =>
  server.json(`/api/images/${id}/labels/`, {
    method: 'PUT',
    body: formWith(data ? [{ field, name, data, type: 'image/png' }] : [], data ? {} : { note: 'no file' }),
  });

/** The stored label values, as the API serves them. */
async function storedLabels(id: number): Promise<{ width: number; height: number; values: Buffer }> {
  const res = await server.request(`/api/images/${id}/labels/`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodeGrey(Buffer.from(await res.arrayBuffer()));
}

/** A label PNG as served: one 8-bit grey channel (sharp's raw output would be sRGB, so the channel is taken). */
async function decodeGrey(png: Buffer): Promise<{ width: number; height: number; values: Buffer }> {
  const meta = await sharp(png).metadata();
  expect([meta.format, meta.channels, meta.bitsPerSample]).toEqual(['png', 1, 8]);
  const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, values: data };
}

async function labelBlobs(): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of server.ctx.storage.list('labels/')) keys.push(k);
  return keys;
}

const counts = (values: Buffer) => {
  const n = [0, 0, 0, 0, 0];
  for (const v of values) n[v]!++;
  return { background: n[1], healthy: n[2], lesion: n[3], excluded: n[4] };
};

describe('PUT / GET / DELETE /images/{id}/labels/', () => {
  it('stores labels of any size scaled to the photo as shown, serves them, replaces them, deletes them', async () => {
    const photo = await uploadRotatedPhoto();
    expect([photo.width, photo.height]).toEqual([320, 480]);
    expect((await server.json(`/api/images/${photo.id}/labels/`)).status).toBe(404);

    // Painted at half size: scaled up with nearest neighbour, so each class keeps exactly 4x its pixels.
    const res = await putLabels(photo.id, await labelPng(160, 240));
    expect(res.status).toBe(200);
    const half = counts(
      await sharp(await labelPng(160, 240))
        .extractChannel(0)
        .raw()
        .toBuffer(),
    );
    expect(res.body).toMatchObject({
      image_id: photo.id,
      counts: {
        background: half.background * 4,
        healthy: half.healthy * 4,
        lesion: half.lesion * 4,
        excluded: half.excluded * 4,
      },
      user: null,
    });
    expect(Date.parse(res.body.updated_time)).toBeGreaterThan(Date.now() - 60_000);
    const stored = await storedLabels(photo.id);
    expect([stored.width, stored.height]).toEqual([320, 480]);
    expect(counts(stored.values)).toEqual(res.body.counts);
    expect(stored.values[0]).toBe(1);
    expect(stored.values[479 * 320 + 319]).toBe(4);
    expect((await server.json(`/api/images/${photo.id}/`)).body.has_labels).toBe(true);

    // Replaced by an RGBA label (a browser canvas: the red channel is the value); the old blob goes.
    const rgba = Buffer.alloc(320 * 480 * 4);
    for (let i = 0; i < 320 * 480; i++) rgba.set([i < 320 * 10 ? 3 : 2, 90, 200, 255], i * 4);
    const canvas = await sharp(rgba, { raw: { width: 320, height: 480, channels: 4 } })
      .png()
      .toBuffer();
    const again = await putLabels(photo.id, canvas);
    expect(again.status).toBe(200);
    expect(again.body.counts).toEqual({ background: 0, healthy: 320 * 470, lesion: 3200, excluded: 0 });
    expect(counts((await storedLabels(photo.id)).values)).toEqual(again.body.counts);
    expect(await labelBlobs()).toHaveLength(1);

    const del = await server.request(`/api/images/${photo.id}/labels/`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await server.json(`/api/images/${photo.id}/labels/`)).status).toBe(404);
    expect((await server.json(`/api/images/${photo.id}/labels/`, { method: 'DELETE' })).body.code).toBe('not_found');
    expect((await server.json(`/api/images/${photo.id}/`)).body.has_labels).toBe(false);
    expect(await labelBlobs()).toEqual([]);
  });

  it('refuses bad input with 400 invalid_labels (or 404, 415) and keeps what was stored', async () => {
    const photo = await uploadRotatedPhoto(2);
    const good = await putLabels(photo.id, await labelPng(32, 48));
    expect(good.status).toBe(200);
    const before = await storedLabels(photo.id);

    const bad: [string, Buffer | null, RegExp][] = [
      [
        'a JPEG',
        await sharp(await labelPng(32, 48))
          .jpeg()
          .toBuffer(),
        /not a PNG/,
      ],
      ['text', Buffer.from('not a picture at all'), /not a PNG/],
      ['a value above 4', await labelPng(32, 48, (x) => (x === 5 ? 5 : 1)), /value 5/],
      ['nothing labelled', await labelPng(32, 48, () => 0), /nothing is labelled/],
      ['a colour photo', await makePng({ width: 32, height: 48, seed: 3 }), /value/],
      ['a truncated PNG', (await labelPng(300, 300, (x, y) => (x * y) % 5)).subarray(0, 200), /cannot be/],
      ['an empty file', Buffer.alloc(0), /file/],
      ['no file', null, /file/],
    ];
    for (const [what, data, detail] of bad) {
      const res = await putLabels(photo.id, data);
      expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status: 400, code: 'invalid_labels' });
      expect(res.body.detail).toMatch(detail);
      expect(res.body.fields).toHaveProperty('file');
    }
    // The file in another field is no file.
    expect((await putLabels(photo.id, await labelPng(32, 48), 'labels')).body.code).toBe('invalid_labels');
    const json = await server.json(`/api/images/${photo.id}/labels/`, { method: 'PUT', body: { file: 'x' } });
    expect([json.status, json.body.code]).toEqual([415, 'unsupported_media_type']);

    // An unknown id is a 404; one that is no id at all a 400 naming it (the project's rule for path ids).
    for (const [id, status] of [
      [999_999, 404],
      ['abc', 400],
      [0, 400],
    ] as const) {
      const res = await putLabels(id, await labelPng(32, 48));
      expect([res.status, res.body.code]).toEqual([status, status === 404 ? 'not_found' : 'invalid']);
      expect((await server.json(`/api/images/${id}/labels/`)).status).toBe(status);
      expect((await server.json(`/api/images/${id}/labels/`, { method: 'DELETE' })).status).toBe(status);
      expect((await server.json(`/api/images/${id}/labels/proposal/`)).status).toBe(status);
    }

    const after = await storedLabels(photo.id);
    expect(after.values.equals(before.values)).toBe(true);
    expect(await labelBlobs()).toHaveLength(1);
  });

  it('has_labels filters the listing and the folder listing; labels go with their image and folder', async () => {
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: `Labels ${Date.now()}` } })).body
      .id as number;
    const [a, b, c] = await uploadFiles(
      server.url,
      await Promise.all(
        [1, 2, 3].map(async (i) => ({ name: `l${i}.jpg`, bytes: await makeSpecimenJpeg({ seed: i + 10 }) })),
      ),
      folder,
    );
    for (const img of [a!, b!]) expect((await putLabels(img.id, await labelPng(48, 32))).status).toBe(200);

    const ids = async (q: string) =>
      (await server.json(`/api/images/?${q}`)).body.results.map((i: { id: number }) => i.id).sort();
    expect(await ids('has_labels=true')).toEqual([a!.id, b!.id].sort());
    expect(await ids('has_labels=false')).toEqual([c!.id]);
    expect(await ids('has_labels=1&search=l1')).toEqual([a!.id]);
    const inFolder = await server.json(`/api/folders/${folder}/images/?has_labels=true`);
    expect(inFolder.body.count).toBe(2);
    expect(inFolder.body.results.every((i: { has_labels: boolean }) => i.has_labels)).toBe(true);
    const bad = await server.json('/api/images/?has_labels=maybe');
    expect([bad.status, Object.keys(bad.body.fields)]).toEqual([400, ['has_labels']]);

    // Deleting the image deletes its labels and their file.
    expect((await server.request(`/api/images/${a!.id}/`, { method: 'DELETE' })).status).toBe(204);
    expect(await labelBlobs()).toHaveLength(1);
    expect(await ids('has_labels=true')).toEqual([b!.id]);
    // So does deleting the folder with its images.
    expect((await server.request(`/api/folders/${folder}/?images=delete`, { method: 'DELETE' })).status).toBe(204);
    expect(await labelBlobs()).toEqual([]);
    expect(await server.ctx.db.kysely.selectFrom('image_labels').selectAll().execute()).toEqual([]);
  });

  it("an overwritten photo loses its labels (they describe the old photo's pixels)", async () => {
    const [img] = await uploadFiles(server.url, [{ name: 'over.jpg', bytes: await makeSpecimenJpeg({ seed: 21 }) }]);
    expect((await putLabels(img!.id, await labelPng(48, 32))).status).toBe(200);
    const form = formWith([{ name: 'over.jpg', data: await makeSpecimenJpeg({ seed: 22 }) }], {
      duplicate_action: 'overwrite',
    });
    const res = await server.json('/api/images/upload-files/', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect((await server.json(`/api/images/${img!.id}/labels/`)).status).toBe(404);
    expect(await labelBlobs()).toEqual([]);
  });
});

describe('concurrent label writes', () => {
  it('of many PUTs at once one wins whole; racing a delete of the image, nothing is left behind', async () => {
    const photo = await uploadRotatedPhoto(9);
    const pngs = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => labelPng(32, 48, (x, y) => (y < n * 4 ? 3 : x < 16 ? 1 : 2))),
    );
    const answers = await Promise.all(pngs.map((png) => putLabels(photo.id, png)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const stored = counts((await storedLabels(photo.id)).values);
    expect(answers.map((a) => a.body.counts)).toContainEqual(stored);
    expect(await labelBlobs()).toHaveLength(1);

    const racing = pngs.map((png) => putLabels(photo.id, png));
    const deleted = server.request(`/api/images/${photo.id}/`, { method: 'DELETE' });
    const statuses = (await Promise.all(racing)).map((a) => a.status);
    expect((await deleted).status).toBe(204);
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    expect(await labelBlobs()).toEqual([]);
    expect(await server.ctx.db.kysely.selectFrom('image_labels').selectAll().execute()).toEqual([]);
  });
});

describe('the orphan sweep and label files', () => {
  it('removes a label file no row names, keeps stored labels and a file a write has claimed', async () => {
    const photo = await uploadRotatedPhoto(7);
    expect((await putLabels(photo.id, await labelPng(32, 48))).status).toBe(200);
    const [kept] = await labelBlobs();
    const orphan = `labels/${photo.id}/0123456789abcdef01234567.png`;
    const claimed = `labels/${photo.id}/89abcdef0123456789abcdef.png`;
    for (const key of [orphan, claimed]) await server.ctx.storage.putBuffer(key, Buffer.from('x'), 'image/png');
    const guard = guardOf(server.ctx.storage);
    await guard.claim([claimed]);
    try {
      await sweepOrphanBlobs(server.ctx, 0);
    } finally {
      guard.release([claimed]);
    }
    expect((await labelBlobs()).sort()).toEqual([kept, claimed].sort());
    await sweepOrphanBlobs(server.ctx, 0);
    expect(await labelBlobs()).toEqual([kept]);
    expect((await storedLabels(photo.id)).width).toBe(320);
  });
});

describe('GET /images/{id}/labels/proposal/', () => {
  it("is the default engine's classes of the photo as a label PNG at the photo's size as shown", async () => {
    const photo = await uploadRotatedPhoto(5);
    const res = await server.request(`/api/images/${photo.id}/labels/proposal/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const { width, height, values: data } = await decodeGrey(Buffer.from(await res.arrayBuffer()));
    expect([width, height]).toEqual([320, 480]);
    const n = counts(data);
    expect(data.every((v) => v <= 4)).toBe(true);
    // Three slices on a dark board: mostly background, healthy flesh and the lesion wedges on the slices.
    expect(n.background).toBeGreaterThan(data.length / 3);
    expect(n.healthy).toBeGreaterThan(1000);
    expect(n.lesion).toBeGreaterThan(100);
    // The rotated photo's slices stand in a column: the middle of the top third is not background.
    expect(data[80 * 320 + 160]).not.toBe(1);
    // Accepted as it is, the proposal is a valid label image.
    const put = await putLabels(
      photo.id,
      await sharp(data, { raw: { width: 320, height: 480, channels: 1 } })
        .toColourspace('b-w')
        .png()
        .toBuffer(),
    );
    expect(put.status).toBe(200);
    expect(put.body.counts).toEqual(n);
  });
});
