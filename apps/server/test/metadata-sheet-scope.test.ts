import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formWith } from './helpers/fixtures.js';
import { insertImageRow } from './helpers/image-rows.js';
import { makeSpecimenJpeg, uploadFiles } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The sheet call's additions for a sheet given with an upload (issue 17): `image_ids` looks the names up among
 * the images an upload just stored (not same-named older ones), and `dry_run` reports without storing, so a
 * sheet that cannot be read is refused before any photo is sent. Runs on SQLite and, in the full suite, on
 * PostgreSQL.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('results').execute();
  await server.ctx.db.kysely.deleteFrom('tasks').execute();
  await server.ctx.db.kysely.deleteFrom('images').execute();
});

const postSheet = (csv: string, fields: Record<string, string> = {}) =>
  server.json('/api/images/metadata/sheet/', {
    method: 'POST',
    body: formWith([{ field: 'file', name: 'book.csv', data: Buffer.from(csv, 'utf8') }], fields),
  });
const metadataOf = async (id: number) => (await server.json(`/api/images/${id}/`)).body.metadata;
async function allMetadata(): Promise<Record<number, unknown>> {
  const list = await server.json('/api/images/?page_size=1000');
  return Object.fromEntries(list.body.results.map((i: { id: number; metadata: unknown }) => [i.id, i.metadata]));
}

const BOOK = 'name,genotype,dah\nr1.jpg,TME419,7\nr2.jpg,TME693,14\nother.jpg,X,1\n';

/** The older r1.jpg (uncategorised, no file) and a new upload of r1.jpg and r2.jpg into a folder. */
async function olderAndUploaded(): Promise<{ older: number; uploaded: Record<string, number> }> {
  await insertImageRow(server, { name: 'r1.jpg' });
  const older = (await server.json('/api/images/?page_size=10')).body.results[0].id as number;
  const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: `Trial ${Date.now()}` } })).body
    .id as number;
  const stored = await uploadFiles(
    server.url,
    await Promise.all(
      ['r1.jpg', 'r2.jpg'].map(async (name, i) => ({ name, bytes: await makeSpecimenJpeg({ seed: 40 + i }) })),
    ),
    folder,
  );
  return { older, uploaded: Object.fromEntries(stored.map((s) => [s.name, s.id])) };
}

describe('POST /images/metadata/sheet/ with image_ids', () => {
  it('applies the sheet to exactly those images: a same-named older image is left alone', async () => {
    const { older, uploaded } = await olderAndUploaded();
    // Over the whole library r1.jpg names two images: that row is ambiguous.
    const unscoped = await postSheet(BOOK, { dry_run: '1' });
    expect(unscoped.body.rows.map((r: { status: string }) => r.status)).toEqual([
      'ambiguous',
      'applied',
      'unknown_file',
    ]);

    const res = await postSheet(BOOK, { image_ids: `${uploaded['r1.jpg']},${uploaded['r2.jpg']}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied: 2, committed: true });
    expect(res.body.rows.map((r: { name: string; status: string; image_id: number | null }) => r)).toMatchObject([
      { row: 2, name: 'r1.jpg', status: 'applied', image_id: uploaded['r1.jpg'] },
      { row: 3, name: 'r2.jpg', status: 'applied', image_id: uploaded['r2.jpg'] },
      { row: 4, name: 'other.jpg', status: 'unknown_file', image_id: null },
    ]);
    expect(await metadataOf(uploaded['r1.jpg']!)).toEqual({ genotype: 'TME419', dah: 7 });
    expect(await metadataOf(uploaded['r2.jpg']!)).toEqual({ genotype: 'TME693', dah: 14 });
    expect(await metadataOf(older)).toEqual({});
  });

  it('with a bad value stores nothing unless partial=1, within the scope too', async () => {
    const { uploaded } = await olderAndUploaded();
    const ids = `${uploaded['r1.jpg']},${uploaded['r2.jpg']}`;
    const bad = 'name,genotype,dah\nr1.jpg,TME419,soon\nr2.jpg,TME693,14\n';
    const blocked = await postSheet(bad, { image_ids: ids });
    expect(blocked.body).toMatchObject({ applied: 0, committed: false });
    expect(blocked.body.rows.map((r: { status: string }) => r.status)).toEqual(['bad_value', 'applied']);
    expect(blocked.body.rows[0].detail).toMatch(/^dah: /);
    expect(await metadataOf(uploaded['r2.jpg']!)).toEqual({});

    const partial = await postSheet(bad, { image_ids: ids, partial: '1' });
    expect(partial.body).toMatchObject({ applied: 1, committed: true });
    expect(await metadataOf(uploaded['r1.jpg']!)).toEqual({});
    expect(await metadataOf(uploaded['r2.jpg']!)).toEqual({ genotype: 'TME693', dah: 14 });
  });

  it('refuses unknown ids, malformed ids and image_ids with folder_id (400 naming image_ids); nothing changes', async () => {
    const { uploaded } = await olderAndUploaded();
    const before = await allMetadata();
    const missing = Math.max(...Object.values(uploaded)) + 1000;

    const unknown = await postSheet(BOOK, { image_ids: `${uploaded['r1.jpg']},${missing}` });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_ids', ids: [missing] });
    expect(unknown.body.fields).toHaveProperty('image_ids');

    for (const malformed of ['1,,2', 'abc', '1;2', '-3', ' 1']) {
      const res = await postSheet(BOOK, { image_ids: malformed });
      expect(res.status, malformed).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(res.body.fields).toHaveProperty('image_ids');
    }

    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: `Other ${Date.now()}` } })).body
      .id;
    const both = await postSheet(BOOK, { image_ids: String(uploaded['r1.jpg']), folder_id: String(folder) });
    expect(both.status).toBe(400);
    expect(both.body.fields).toHaveProperty('image_ids');

    expect(await allMetadata()).toEqual(before);
  });
});

describe('POST /images/metadata/sheet/ with dry_run=1', () => {
  it('reports every row as the real call would and stores nothing', async () => {
    const { uploaded } = await olderAndUploaded();
    const ids = `${uploaded['r1.jpg']},${uploaded['r2.jpg']}`;
    const dry = await postSheet(BOOK, { image_ids: ids, dry_run: '1' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ applied: 0, committed: false, dry_run: true });
    expect(dry.body.rows.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied', 'unknown_file']);
    expect(await metadataOf(uploaded['r1.jpg']!)).toEqual({});
    expect(await metadataOf(uploaded['r2.jpg']!)).toEqual({});

    // dry_run=0 (or no dry_run) is the real call; the answer then carries no dry_run flag.
    const real = await postSheet(BOOK, { image_ids: ids, dry_run: '0' });
    expect(real.body).toMatchObject({ applied: 2, committed: true });
    expect(real.body).not.toHaveProperty('dry_run');
    expect(await metadataOf(uploaded['r1.jpg']!)).toEqual({ genotype: 'TME419', dah: 7 });
  });

  it('refuses a sheet it cannot read exactly as the real call does, and a bad dry_run value', async () => {
    await olderAndUploaded();
    const before = await allMetadata();
    const noName = await postSheet('genotype,dah\nA,1\n', { dry_run: '1' });
    expect(noName.status).toBe(400);
    expect(noName.body.fields).toHaveProperty('file');
    const binary = await server.json('/api/images/metadata/sheet/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'x.csv', data: Buffer.from([0xff, 0xfe, 0x00, 0x81]) }], {
        dry_run: '1',
      }),
    });
    expect(binary.status).toBe(415);
    expect(binary.body.code).toBe('unsupported_file_type');
    const badFlag = await postSheet(BOOK, { dry_run: 'yes' });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.fields).toHaveProperty('dry_run');
    expect(await allMetadata()).toEqual(before);
  });
});
