import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { SqliteReaders } from '../src/db/sqlite-readers.js';
import { ResultsRepository, type GroupSums } from '../src/predictions/results.repository.js';
import { insertImageRow } from './helpers/image-rows.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The group summary's sums (GET /predictions/groups/). On SQLite the grouped pass runs on reader threads, cut
 * into parts whose sums are added; this checks the figures against sums worked out here from the seeded rows,
 * through the API and with 1 and 3 parts, so a part that loses, doubles or mixes up a group fails.
 */
let server: TestServer;
const GENOTYPES = ['TME419', 'TME7', '12', 'I011412'];

interface Seeded {
  genotype: string | number | null;
  dah: number | null;
  ppd: number | null;
  counted: number;
}
const seeded: Seeded[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const db = server.ctx.db.kysely;
  const now = new Date().toISOString();
  const task = await db
    .insertInto('tasks')
    .values({
      name: 'Parts',
      name_lower: 'parts',
      type: 'prediction',
      status: 'completed',
      algorithm: 'deeplabv3plus_resnet101',
      model_type: 'deeplabv3plus_resnet101',
      image_ids: '[]',
      image_count: 0,
      parameters: '{}',
      created_at: now,
      updated_at: now,
      completed_at: now,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < 61; i++) await insertImageRow(server, { name: `slice_${i}.jpg` });
  const images = (await server.json('/api/images/?page_size=100&ordering=name')).body.results as { id: number }[];
  for (const [i, image] of images.entries()) {
    // Every seventh image has no genotype (the null group), every fifth no dah; "12" is stored as the number 12.
    const genotype = i % 7 === 0 ? null : GENOTYPES[i % GENOTYPES.length]!;
    const dah = i % 5 === 0 ? null : [0, 7, 14][i % 3]!;
    const metadata: Record<string, string | number> = {};
    if (genotype !== null) metadata.genotype = genotype;
    if (dah !== null) metadata.dah = dah;
    if (Object.keys(metadata).length) {
      const res = await server.json(`/api/images/${image.id}/`, { method: 'PATCH', body: { metadata } as never });
      expect(res.status).toBe(200);
    }
    // Every eleventh result failed (no PPD): it counts in no group.
    const ppd = i % 11 === 0 ? null : Math.round(((i * 37) % 100) + (i % 3) * 0.25) / 10;
    const counted = ppd === null ? 0 : 1 + (i % 4);
    const inserted = await db
      .insertInto('results')
      .values({
        task_id: task.id,
        image_id: image.id,
        image_name: `slice_${i}.jpg`,
        image_name_lower: `slice_${i}.jpg`,
        ppd_value: ppd,
        engine_ppd_value: ppd,
        sub_ppd_values: '[]',
        prediction: null,
        confidence: null,
        oss_key: null,
        vis_keys: '{}',
        error_code: ppd === null ? 'no_specimen_found' : null,
        error_message: null,
        processing_time: 0.1,
        created_at: now,
        counted_specimens: counted,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    // The image's newest scored result, as the results' owner keeps it (the summary counts each image by it).
    if (ppd !== null)
      await db
        .updateTable('images')
        .set({ ppd_value: ppd, last_result_id: inserted.id })
        .where('id', '=', image.id)
        .execute();
    seeded.push({ genotype: genotype === '12' ? 12 : genotype, dah, ppd, counted });
  }
});
afterAll(async () => {
  await server?.close();
});

/** What the groups must be, summed here from the seeded rows. */
function expectedSums(byDah: boolean): GroupSums[] {
  const groups = new Map<string, GroupSums>();
  for (const row of seeded) {
    if (row.ppd === null) continue;
    const key = byDah ? [row.genotype, row.dah] : [row.genotype];
    const id = JSON.stringify(key);
    const g = groups.get(id) ?? { key, images: 0, specimens: 0, sum: 0, sumSquares: 0, healthy: 0, mild: 0, severe: 0 };
    g.images += 1;
    g.specimens += row.counted;
    g.sum += row.ppd;
    g.sumSquares += row.ppd * row.ppd;
    if (row.ppd < 4) g.healthy += 1;
    else if (row.ppd < 7) g.mild += 1;
    else g.severe += 1;
    groups.set(id, g);
  }
  return [...groups.values()];
}

const byKey = (groups: GroupSums[]) =>
  Object.fromEntries(
    groups.map((g) => [
      JSON.stringify(g.key),
      { ...g, sum: Number(g.sum.toFixed(6)), sumSquares: Number(g.sumSquares.toFixed(6)) },
    ]),
  );

describe('group summary sums', () => {
  it('through the API: each group (the null group too) has the seeded counts, mean and bands', async () => {
    const res = await server.json('/api/predictions/groups/?by=genotype,dah');
    expect(res.status).toBe(200);
    const expected = expectedSums(true);
    expect(res.body).toHaveLength(expected.length);
    for (const want of expected) {
      const got = res.body.find((g: any) => g.key.genotype === want.key[0] && g.key.dah === want.key[1]);
      expect(got, JSON.stringify(want.key)).toBeDefined();
      expect(got.images).toBe(want.images);
      expect(got.specimens).toBe(want.specimens);
      expect(got.mean).toBeCloseTo(want.sum / want.images, 1);
      expect(got.bands).toEqual({ healthy: want.healthy, mild: want.mild, severe: want.severe });
    }
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'on SQLite, one pass on the main connection and 1 or 3 parts on reader threads add up to the same sums',
    async () => {
      const file = path.join(server.dataDir, 'cassavascope.db');
      const pools = [new SqliteReaders(file, 1), new SqliteReaders(file, 3)];
      try {
        for (const fields of [['genotype'], ['genotype', 'dah']]) {
          const want = byKey(expectedSums(fields.length > 1));
          expect(byKey(await new ResultsRepository(server.ctx.db.kysely).groupSums({}, fields))).toEqual(want);
          for (const readers of pools) {
            const repo = new ResultsRepository(server.ctx.db.kysely, readers);
            expect(byKey(await repo.groupSums({}, fields)), `${readers.threads} parts`).toEqual(want);
          }
        }
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
    },
  );
});
