import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrationProvider } from '../src/db/migrations/index.js';

/**
 * Migration 0018 on a database of tasks finished before refusals were outcomes: `refused_count` is counted from
 * their results, and a task whose every photo was refused, stored `failed`, becomes `completed` (issue 25).
 */
let dir = '';
afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const now = '2026-01-02T03:04:05.000Z';

it('counts refusals of existing tasks and completes the all-refused ones', async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-mig-refused-'));
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'db.sqlite')) }) });
  try {
    const migrator = new Migrator({ db, provider: migrationProvider });
    const before = await migrator.migrateTo('0017-lab-models');
    if (before.error) throw before.error;
    const addTask = async (name: string, status: string, codes: (string | null)[]) => {
      const failed = codes.filter((c) => c !== null).length;
      const task = await db
        .insertInto('tasks')
        .values({
          name,
          name_lower: name.toLowerCase(),
          type: 'prediction',
          status,
          algorithm: 'a',
          model_type: 'a',
          image_ids: JSON.stringify(codes.map((_, i) => i + 1)),
          image_count: codes.length,
          processed_count: codes.length,
          failed_count: failed,
          parameters: '{}',
          error_message: status === 'failed' ? 'Every image failed; each result gives its error_code' : null,
          created_at: now,
          updated_at: now,
          completed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [i, code] of codes.entries()) {
        await db
          .insertInto('results')
          .values({
            task_id: task.id,
            image_id: i + 1,
            image_name: `${i}.jpg`,
            image_name_lower: `${i}.jpg`,
            ppd_value: code === null ? 2 : null,
            sub_ppd_values: '[]',
            vis_keys: '{}',
            error_code: code,
            error_message: code,
            created_at: now,
          })
          .execute();
      }
      return task.id as number;
    };
    const refused = await addTask('Field', 'failed', ['not_a_specimen_photo', 'no_specimen_found']);
    const gone = await addTask('Gone', 'failed', ['image_deleted']);
    const mixed = await addTask('Mixed', 'completed', [null, 'no_specimen_found', 'decode_failed']);

    const after = await migrator.migrateToLatest();
    if (after.error) throw after.error;
    const rows = await db.selectFrom('tasks').select(['id', 'status', 'refused_count', 'error_message']).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(refused)).toMatchObject({ status: 'completed', refused_count: 2, error_message: null });
    expect(byId.get(gone)).toMatchObject({ status: 'failed', refused_count: 0 });
    expect(byId.get(mixed)).toMatchObject({ status: 'completed', refused_count: 1 });
  } finally {
    await db.destroy();
  }
});
