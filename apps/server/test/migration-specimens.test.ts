import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { openPostgresKysely } from '../src/db/postgres.js';
import type { Database } from '../src/db/schema.js';
import { toResult } from '../src/predictions/result.mapper.js';
import { ResultsRepository } from '../src/predictions/results.repository.js';
import { exportCsvStream } from '../src/predictions/results-export.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { createTestDatabase } from './helpers/scale-out-env.js';

/**
 * Migration 0006 on a database that already holds results stored before specimens existed: a real
 * database is brought to 0005, given old rows, then migrated to the latest schema. SQLite always;
 * PostgreSQL too in the scale-out pass (TEST_DATABASE_URL).
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

const now = '2026-01-02T03:04:05.000Z';

async function seedOldRows(db: Kysely<Database>): Promise<{ scored: number; failed: number; cutsOnly: number }> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateTo('0005-task-engine-label');
  if (error) throw error;
  const old = db as unknown as Kysely<any>;
  const task = await old
    .insertInto('tasks')
    .values({
      name: 'Old',
      name_lower: 'old',
      type: 'prediction',
      status: 'completed',
      algorithm: 'a',
      model_type: 'a',
      image_ids: '[1,2,3]',
      image_count: 3,
      parameters: '{}',
      created_at: now,
      updated_at: now,
      completed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const base = {
    task_id: task.id,
    processing_time: 0.2,
    created_at: now,
    error_message: null,
    error_code: null,
    oss_key: null,
  };
  const keys = (i: number) =>
    Object.fromEntries(
      [1, 2, 3].flatMap((n) => [
        [`cut2_${n}`, `results/${task.id}/${i}/cut2_${n}.webp`],
        [`pred_${n}`, `results/${task.id}/${i}/pred_${n}.webp`],
      ]),
    );
  const scored = await old
    .insertInto('results')
    .values({
      ...base,
      image_id: 1,
      image_name: 'a.jpg',
      image_name_lower: 'a.jpg',
      ppd_value: 5.42,
      sub_ppd_values: '[4.9,6.1,5.26]',
      prediction: 'mild',
      confidence: 0.91,
      oss_key: `results/${task.id}/1/overlay.webp`,
      vis_keys: JSON.stringify(keys(1)),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const failed = await old
    .insertInto('results')
    .values({
      ...base,
      image_id: 2,
      image_name: 'b.jpg',
      image_name_lower: 'b.jpg',
      ppd_value: null,
      sub_ppd_values: '[]',
      prediction: null,
      confidence: null,
      vis_keys: '{}',
      error_code: 'no_specimen_found',
      error_message: 'none',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A first segmentation: cuts, no values.
  const cutsOnly = await old
    .insertInto('results')
    .values({
      ...base,
      image_id: 3,
      image_name: 'c.jpg',
      image_name_lower: 'c.jpg',
      ppd_value: null,
      sub_ppd_values: '[]',
      prediction: null,
      confidence: null,
      vis_keys: JSON.stringify({ cut2_1: 'k/c1.webp', cut2_2: 'k/c2.webp' }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { scored: scored.id, failed: failed.id, cutsOnly: cutsOnly.id };
}

async function checkMigrated(
  db: Db,
  dataDir: string,
  ids: { scored: number; failed: number; cutsOnly: number },
): Promise<void> {
  const storage = new LocalStorage(dataDir);
  const repo = new ResultsRepository(db.kysely);
  const scored = toResult({ ...(await repo.get(ids.scored))!, blob_key: null }, storage);
  expect(scored).toMatchObject({
    ppd_value: 5.42,
    engine_ppd_value: 5.42,
    needs_review: false,
    reviewed: false,
    sub_ppd_values: [4.9, 6.1, 5.26],
  });
  expect(scored.specimens).toHaveLength(3);
  expect(scored.specimens[1]).toEqual({
    index: 2,
    kind: 'root_slice',
    box: null,
    ppd: 6.1,
    engine_ppd: 6.1,
    confidence: null,
    needs_review: false,
    excluded: false,
    corrected: false,
    source: 'engine',
    cut_url: scored.vis_images.cut2_2,
    pred_url: scored.vis_images.pred_2,
  });
  expect(scored.specimens[1]!.cut_url).toMatch(/cut2_2\.webp$/);
  expect(Object.keys(scored.vis_images)).toHaveLength(6);

  const failed = toResult({ ...(await repo.get(ids.failed))!, blob_key: null }, storage);
  expect(failed).toMatchObject({
    specimens: [],
    needs_review: false,
    reviewed: false,
    engine_ppd_value: null,
    error_code: 'no_specimen_found',
  });

  const cuts = toResult({ ...(await repo.get(ids.cutsOnly))!, blob_key: null }, storage);
  expect(cuts.specimens.map((s) => [s.index, s.ppd, s.cut_url !== null, s.pred_url])).toEqual([
    [1, null, true, null],
    [2, null, true, null],
  ]);

  // The export counts them without a second look at the JSON.
  let csv = '';
  for await (const chunk of exportCsvStream(db, {})) csv += chunk;
  const lines = csv.slice(1).trim().split('\r\n');
  // ... specimen_count, model_name (none: the default engine), specimen_kind (auto for tasks before 0017), ...
  expect(lines[1]).toBe('a.jpg,5.42,0.91,mild,0.2,4.9 / 6.1 / 5.26,1,,5.42,false,3,,auto,5.42');
  expect(lines[2]).toBe('b.jpg,,,,0.2,,1,no_specimen_found,,false,0,,auto,');
  expect(lines[3]!.endsWith(',false,2,,auto,')).toBe(true);
  expect(await repo.count({ needsReview: false })).toBe(3);
}

describe('migration 0006 (result specimens) on existing results', () => {
  it('SQLite: old rows get specimens from their values and stored cuts, engine values, no review flags', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-migrate-'));
    dirs.push(dataDir);
    const before = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'cassavascope.db')) }),
    });
    const ids = await seedOldRows(before);
    await before.destroy();
    const db = await openDatabase({ dataDir });
    try {
      await checkMigrated(db, dataDir, ids);
    } finally {
      await db.close();
    }
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('PostgreSQL: the same', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-migrate-'));
    dirs.push(dataDir);
    const url = await createTestDatabase(process.env.TEST_DATABASE_URL!);
    const before = await openPostgresKysely(url);
    const ids = await seedOldRows(before);
    await before.destroy();
    const db = await openDatabase({ dataDir, databaseUrl: url });
    try {
      await checkMigrated(db, dataDir, ids);
    } finally {
      await db.close();
    }
  });
});
