import { Migrator } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../src/db/migrations/index.js';
import { nameSortKey } from '../src/names/name-sort.js';
import { emptyDatabase } from './helpers/empty-database.js';
import { makeGreyJpeg, uploadFiles } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/** `GET /folders/` lists names as people sort them, as `ordering=name` does for images (migration 0013). */
let server: TestServer;

const folderNames = async (query = '') =>
  ((await server.json(`/api/folders/${query}`)).body.results as { name: string }[]).map((f) => f.name);

async function createFolder(name: string): Promise<number> {
  const res = await server.json('/api/folders/', { method: 'POST', body: { name } });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
  await server.ctx.db.kysely.deleteFrom('folders').execute();
});

describe('GET /folders/ order', () => {
  it('is case-insensitive, with numbers in numeric order and Chinese by pinyin after Latin names', async () => {
    // 稻田 dào, 地块 dì: pinyin order; code point order would put 地 (U+5730) before 稻 (U+7A3B).
    for (const name of [
      'Field trial 10',
      'field trial 2',
      '地块 3',
      'Field trial 1',
      '稻田',
      'Field trial 11',
      'apple',
    ])
      await createFolder(name);
    expect(await folderNames()).toEqual([
      'apple',
      'Field trial 1',
      'field trial 2',
      'Field trial 10',
      'Field trial 11',
      '稻田',
      '地块 3',
    ]);
    // Pages follow the same order.
    const pages = [...(await folderNames('?page_size=3')), ...(await folderNames('?page_size=3&page=2'))];
    expect(pages).toEqual((await folderNames()).slice(0, 6));
  });

  it('places a renamed folder by its new name', async () => {
    await createFolder('Field trial 1');
    await createFolder('Field trial 2');
    const eleven = await createFolder('Field trial 11');
    await createFolder('稻田');
    const renamed = await server.json(`/api/folders/${eleven}/`, { method: 'PUT', body: { name: 'field trial 03' } });
    expect(renamed.status).toBe(200);
    expect(await folderNames()).toEqual(['Field trial 1', 'Field trial 2', 'field trial 03', '稻田']);
    await server.json(`/api/folders/${eleven}/`, { method: 'PUT', body: { name: '地块' } });
    expect(await folderNames()).toEqual(['Field trial 1', 'Field trial 2', '稻田', '地块']);
  });
});

describe('images ordered by folder (ordering=folder)', () => {
  const byFolder = async () =>
    ((await server.json('/api/images/?ordering=folder&page_size=100')).body.results as { name: string }[]).map(
      (i) => i.name,
    );

  it('follow the folders natural order, through upload, move, rename and a deletion that moves images', async () => {
    const ten = await createFolder('Field trial 10');
    const two = await createFolder('Field trial 2');
    const one = await createFolder('field trial 1');
    const grey = async (name: string, width: number) => ({ name, bytes: await makeGreyJpeg(width, 40) });
    // Uploaded straight into a folder (the upload path sets the key) ...
    await uploadFiles(server.url, [await grey('in_ten.jpg', 41)], ten);
    await uploadFiles(server.url, [await grey('in_two.jpg', 42)], two);
    await uploadFiles(server.url, [await grey('in_one.jpg', 43)], one);
    // ... or moved there afterwards (the folders path sets it).
    const [loose] = await uploadFiles(server.url, [await grey('moved_to_ten.jpg', 44)]);
    const moved = await server.json(`/api/folders/${ten}/add_images/`, {
      method: 'POST',
      body: { image_ids: [loose!.id] },
    });
    expect(moved.status).toBe(200);
    const order = await byFolder();
    expect(order.slice(0, 2)).toEqual(['in_one.jpg', 'in_two.jpg']);
    expect(order.slice(2).sort()).toEqual(['in_ten.jpg', 'moved_to_ten.jpg']);

    // Renamed "Field trial 0", its images come first.
    expect((await server.json(`/api/folders/${ten}/`, { method: 'PUT', body: { name: 'Field trial 0' } })).status).toBe(
      200,
    );
    expect((await byFolder()).slice(2)).toEqual(['in_one.jpg', 'in_two.jpg']);

    // "field trial 1" deleted with its images moved to "Field trial 2": they sort under their new folder.
    const gone = await server.json(`/api/folders/${one}/?images=move&target=${two}`, { method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await byFolder()).slice(2).sort()).toEqual(['in_one.jpg', 'in_two.jpg']);
    const rows = await server.ctx.db.kysely.selectFrom('images').select(['name', 'folder_sort']).execute();
    const key = Object.fromEntries(rows.map((r) => [r.name, r.folder_sort]));
    expect(key['in_one.jpg']).toBe(nameSortKey('Field trial 2'));
    expect(key['moved_to_ten.jpg']).toBe(nameSortKey('Field trial 0'));
  });
});

describe('migration 0015', () => {
  it("gives images stored before it their folder's natural key", async () => {
    const { db, drop } = await emptyDatabase();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const before = await migrator.migrateTo('0013-folder-name-sort');
      if (before.error) throw before.error;
      const now = '2026-11-01T00:00:00.000Z';
      const folders = ['Field trial 10', 'Field trial 2'];
      for (const name of folders)
        await db
          .insertInto('folders')
          .values({
            name,
            name_key: name.toLowerCase(),
            name_sort: nameSortKey(name),
            description: '',
            created_at: now,
          })
          .execute();
      const ids = await db.selectFrom('folders').select(['id', 'name', 'name_key']).execute();
      for (const [i, f] of ids.entries()) {
        const sha = String(i + 1).padStart(64, 'f');
        await db
          .insertInto('images')
          .values({
            name: `${f.name}.jpg`,
            name_lower: `${f.name}.jpg`.toLowerCase(),
            name_sort: nameSortKey(`${f.name}.jpg`),
            folder_id: f.id,
            folder_sort: f.name_key,
            size: 10,
            format: 'jpeg',
            width: 1,
            height: 1,
            sha256: sha,
            blob_key: `originals/ff/${sha}.jpg`,
            thumb_key: `thumbs/ff/${sha}.webp`,
            created_at: now,
          })
          .execute();
      }
      const after = await migrator.migrateToLatest();
      if (after.error) throw after.error;
      const sorted = await db.selectFrom('images').select(['name', 'folder_sort']).orderBy('folder_sort').execute();
      expect(sorted.map((r) => r.name)).toEqual(['Field trial 2.jpg', 'Field trial 10.jpg']);
      expect(sorted.map((r) => r.folder_sort)).toEqual([nameSortKey('Field trial 2'), nameSortKey('Field trial 10')]);
    } finally {
      await drop();
    }
  });
});

describe('migration 0013', () => {
  it('fills name_sort for folders stored before it, and GET /folders/ order uses it', async () => {
    const { db, drop } = await emptyDatabase();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const before = await migrator.migrateTo('0012-pending-uploads');
      if (before.error) throw before.error;
      const now = '2026-11-01T00:00:00.000Z';
      await db
        .insertInto('folders')
        .values(
          ['Field trial 10', 'Field trial 2', '稻田', 'field trial 1'].map((name) => ({
            name,
            name_key: name.toLowerCase(),
            description: '',
            created_at: now,
          })),
        )
        .execute();
      const after = await migrator.migrateToLatest();
      if (after.error) throw after.error;
      const sorted = await db
        .selectFrom('folders')
        .select(['name', 'name_sort'])
        .orderBy('name_sort')
        .orderBy('id')
        .execute();
      expect(sorted.map((r) => r.name)).toEqual(['field trial 1', 'Field trial 2', 'Field trial 10', '稻田']);
      expect(sorted.every((r) => r.name_sort === nameSortKey(r.name))).toBe(true);
    } finally {
      await drop();
    }
  });
});
