import { Migrator } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../src/db/migrations/index.js';
import { nameSortKey } from '../src/names/name-sort.js';
import { emptyDatabase } from './helpers/empty-database.js';
import { insertImageRow } from './helpers/image-rows.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/** `ordering=name` sorts names as people do (issue 15 item 9; migration 0009, images/name-sort.ts). */
let server: TestServer;
const seed = (name: string) => insertImageRow(server, { name });

const names = async (query: string) =>
  ((await server.json(`/api/images/${query}`)).body.results as { name: string }[]).map((i) => i.name);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
});

describe('ordering=name', () => {
  it('is case-insensitive, with numbers in numeric order', async () => {
    for (const n of [
      'plot.jpg',
      'T.jpg',
      'slice_10.jpg',
      'big.jpg',
      'I.jpg',
      'slice_2.jpg',
      'Big2.jpg',
      'slice_1.jpg',
      'apple.jpg',
    ])
      await seed(n);
    expect(await names('?ordering=name')).toEqual([
      'apple.jpg',
      'big.jpg',
      'Big2.jpg',
      'I.jpg',
      'plot.jpg',
      'slice_1.jpg',
      'slice_2.jpg',
      'slice_10.jpg',
      'T.jpg',
    ]);
    expect(await names('?ordering=-name')).toEqual([
      'T.jpg',
      'slice_10.jpg',
      'slice_2.jpg',
      'slice_1.jpg',
      'plot.jpg',
      'I.jpg',
      'Big2.jpg',
      'big.jpg',
      'apple.jpg',
    ]);
    // Paging walks the same order.
    expect([
      ...(await names('?ordering=name&page_size=4')),
      ...(await names('?ordering=name&page_size=4&page=2')),
      ...(await names('?ordering=name&page_size=4&page=3')),
    ]).toEqual(await names('?ordering=name'));
  });

  it('sorts Chinese names by pinyin, after Latin names', async () => {
    // zhōng, ā, dì, bō: pinyin order a, bo, di, zhong (code point order would be 中 啊 地 波 -> 中 first).
    for (const n of ['中心.jpg', '啊.jpg', '地块3.jpg', '波.jpg', 'zeta.jpg', '地块12.jpg']) await seed(n);
    expect(await names('?ordering=name')).toEqual([
      'zeta.jpg',
      '啊.jpg',
      '波.jpg',
      '地块3.jpg',
      '地块12.jpg',
      '中心.jpg',
    ]);
  });

  it('the key compares byte by byte as the names should', () => {
    const sorted = ['Slice_10', 'slice_9', 'SLICE_09b', 'a']
      .map((n) => [n, nameSortKey(n)] as const)
      .sort((a, b) => (a[1] < b[1] ? -1 : 1));
    expect(sorted.map(([n]) => n)).toEqual(['a', 'slice_9', 'SLICE_09b', 'Slice_10']);
  });
});

describe('migration 0009', () => {
  it('fills name_sort for images stored before it, and the name ordering uses it', async () => {
    // On SQLite, and on PostgreSQL in the scale-out pass (where its first version failed on stored images).
    const { db, drop } = await emptyDatabase();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const before = await migrator.migrateTo('0008-nfc-names');
      if (before.error) throw before.error;
      const row = (name: string, i: number) => ({
        name,
        name_lower: name.toLowerCase(),
        folder_id: null,
        size: 1,
        format: 'jpeg',
        width: 1,
        height: 1,
        sha256: String(i).padStart(64, 'd'),
        blob_key: `originals/dd/${i}.jpg`,
        thumb_key: `thumbs/dd/${i}.webp`,
        created_at: '2026-11-01T00:00:00.000Z',
      });
      await db
        .insertInto('images')
        .values([row('slice_10.jpg', 1), row('Slice_2.jpg', 2), row('波.jpg', 3)])
        .execute();
      const after = await migrator.migrateToLatest();
      if (after.error) throw after.error;
      const sorted = await db
        .selectFrom('images')
        .select(['name', 'name_sort'])
        .orderBy('name_sort')
        .orderBy('id')
        .execute();
      expect(sorted.map((r) => r.name)).toEqual(['Slice_2.jpg', 'slice_10.jpg', '波.jpg']);
      expect(sorted.every((r) => r.name_sort === nameSortKey(r.name))).toBe(true);
    } finally {
      await drop();
    }
  });
});
