import { Migrator } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../src/db/migrations/index.js';
import { nameSortKey } from '../src/images/name-sort.js';
import { emptyDatabase } from './helpers/empty-database.js';
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
