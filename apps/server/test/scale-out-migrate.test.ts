import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_PARAMETERS } from '@cassavascope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateSqliteToPostgres } from '../src/cli/migrate-sqlite-to-postgres.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { createStorage } from '../src/storage/create-storage.js';
import { makeJpeg } from './helpers/fixtures.js';
import { createTestBucket, createTestDatabase } from './helpers/scale-out-env.js';
import { startTestServer } from './helpers/test-server.js';
import { entryArgs } from '../src/util/entry-args.js';

// Needs the scale-out services (the second run of the server suite, scripts/run-tests.mjs).
const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_S3_ENDPOINT);
const serverDir = path.resolve(import.meta.dirname, '..');

let sourceDir: string;
let targetDir: string;
const blobs = new Map<string, Buffer>();
let runningTaskImages: number[] = [];

/** An embedded installation with folders, images, a task and results, and their blobs. */
async function seedEmbeddedInstallation(dir: string): Promise<void> {
  const db = await openDatabase({ dataDir: dir });
  const storage = new LocalStorage(dir);
  const now = '2026-11-21T10:00:00.000Z';
  const k = db.kysely;
  const folder = await k
    .insertInto('folders')
    .values({ name: 'Field trial 2026', name_key: 'field trial 2026', description: '试验田', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k
    .insertInto('folders')
    .values({ name: 'Empty', name_key: 'empty', description: '', created_at: now })
    .execute();
  // Delete one so ids have a gap: kept ids must survive the copy.
  await k.deleteFrom('folders').where('name', '=', 'Empty').execute();
  const imageIds: number[] = [];
  for (let i = 0; i < 7; i++) {
    // One big blob (a multipart upload to S3), the others real photos a task can score.
    const bytes =
      i === 0 ? crypto.randomBytes(3 * 1024 * 1024) : await makeJpeg({ width: 320, height: 240, seed: i, noise: 10 });
    const sha = crypto.createHash('sha256').update(bytes).digest('hex');
    const name = i === 0 ? '木薯_plot1.jpg' : `plot${i}.jpg`;
    const blobKey = `originals/${sha.slice(0, 2)}/${sha}.jpg`;
    const thumbKey = `thumbs/${sha.slice(0, 2)}/${sha}.webp`;
    await storage.putBuffer(blobKey, bytes, 'image/jpeg');
    await storage.putBuffer(thumbKey, bytes.subarray(0, 100), 'image/webp');
    blobs.set(blobKey, bytes).set(thumbKey, bytes.subarray(0, 100));
    const row = await k
      .insertInto('images')
      .values({
        name,
        name_lower: name.toLowerCase(),
        folder_id: i < 4 ? folder.id : null,
        size: bytes.length,
        format: 'jpeg',
        width: 4000,
        height: 3000,
        sha256: sha,
        blob_key: blobKey,
        thumb_key: thumbKey,
        created_at: `2026-11-2${i}T08:00:00.000Z`,
        ppd_value: i === 1 ? 5.42 : null,
        last_prediction: i === 1 ? 'mild' : null,
        last_result_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    imageIds.push(row.id);
  }
  // Sample fields (a WITHOUT ROWID table, paged by its primary key): 1 400 rows, across several pages.
  const fields = imageIds.flatMap((imageId) =>
    Array.from({ length: 200 }, (_v, f) => ({
      image_id: imageId,
      field: `f${f}`,
      num_value: f % 2 ? f : null,
      text_value: f % 2 ? null : `v${f}`,
    })),
  );
  for (let i = 0; i < fields.length; i += 200)
    await k
      .insertInto('image_fields')
      .values(fields.slice(i, i + 200))
      .execute();
  // A task the embedded server was in the middle of when it was stopped: one job left running.
  runningTaskImages = imageIds.slice(1, 4);
  const task = await k
    .insertInto('tasks')
    .values({
      name: 'Interrupted',
      name_lower: 'interrupted',
      type: 'prediction',
      status: 'running',
      algorithm: 'deeplabv3plus_resnet101',
      model_type: 'deeplabv3plus_resnet101',
      image_ids: JSON.stringify(runningTaskImages),
      image_count: runningTaskImages.length,
      parameters: JSON.stringify(DEFAULT_PARAMETERS),
      error_message: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k
    .insertInto('task_jobs')
    .values({ task_id: task.id, image_ids: JSON.stringify(runningTaskImages), status: 'running', updated_at: now })
    .execute();
  await db.close();
}

beforeAll(async () => {
  if (!enabled) return;
  sourceDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-migrate-src-'));
  targetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-migrate-dst-'));
  await seedEmbeddedInstallation(sourceDir);
});

afterAll(async () => {
  if (!enabled) return;
  await fs.rm(sourceDir, { recursive: true, force: true });
  await fs.rm(targetDir, { recursive: true, force: true });
});

async function targetEnv(): Promise<Record<string, string>> {
  return {
    DATA_DIR: targetDir,
    DATABASE_URL: await createTestDatabase(process.env.TEST_DATABASE_URL!),
    ...(await createTestBucket(process.env.TEST_S3_ENDPOINT!)),
  };
}

describe.skipIf(!enabled)('migrating an embedded installation to PostgreSQL + S3', () => {
  it('copies every row with its id and every blob byte for byte; new rows get fresh ids', async () => {
    const env = await targetEnv();
    const target = loadConfig(env);
    const report = await migrateSqliteToPostgres({ sourceDataDir: sourceDir, target });
    expect(report.tables.folders).toBe(1);
    expect(report.tables.images).toBe(7);
    expect(report.blobs).toBe(blobs.size);

    const src = await openDatabase({ dataDir: sourceDir });
    const dst = await openDatabase({ dataDir: targetDir, databaseUrl: target.databaseUrl });
    const srcImages = await src.kysely.selectFrom('images').selectAll().orderBy('id').execute();
    const dstImages = await dst.kysely.selectFrom('images').selectAll().orderBy('id').execute();
    expect(dstImages).toEqual(srcImages);
    expect(await dst.kysely.selectFrom('folders').selectAll().execute()).toEqual(
      await src.kysely.selectFrom('folders').selectAll().execute(),
    );
    const fieldRows = (db: typeof src) =>
      db.kysely.selectFrom('image_fields').selectAll().orderBy('image_id').orderBy('field').execute();
    expect(report.tables.image_fields).toBe(1400);
    expect(
      (await fieldRows(dst)).map((r) => ({ ...r, num_value: r.num_value === null ? null : Number(r.num_value) })),
    ).toEqual(await fieldRows(src));
    // The per-folder, per-format counts were rebuilt by the target's triggers, equal to the source's.
    const tally = (db: typeof src) =>
      db.kysely
        .selectFrom('image_counts')
        .select(['folder_key', 'format', 'n'])
        .where('n', '>', 0)
        .orderBy('folder_key')
        .orderBy('format')
        .execute();
    expect((await tally(dst)).map((r) => ({ ...r, n: Number(r.n) }))).toEqual(await tally(src));
    expect((await tally(dst)).reduce((sum, r) => sum + Number(r.n), 0)).toBe(7);

    // The identity sequence continues after the copied ids (the deleted folder's id included).
    const next = await dst.kysely
      .insertInto('folders')
      .values({ name: 'New', name_key: 'new', description: '', created_at: '2026-11-22T00:00:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(next.id).toBe(3);
    await src.close();
    await dst.close();

    const storage = await createStorage(target);
    for (const [key, bytes] of blobs) expect((await storage.getBuffer(key))?.equals(bytes), key).toBe(true);
    (storage as unknown as { close(): void }).close();
  });

  it('refuses a target database that already holds data, and the command explains why', async () => {
    const env = await targetEnv();
    await migrateSqliteToPostgres({ sourceDataDir: sourceDir, target: loadConfig(env) });
    const run = promisify(execFile)(
      process.execPath,
      [...entryArgs('src/cli/migrate-command.ts'), '--from', sourceDir],
      { cwd: serverDir, env: { ...process.env, ...env } },
    );
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('target database is not empty'),
    });
  });

  it('the command migrates a fresh target and prints its report', async () => {
    const env = await targetEnv();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...entryArgs('src/cli/migrate-command.ts'), '--from', sourceDir],
      { cwd: serverDir, env: { ...process.env, ...env } },
    );
    const report = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(report.tables.images).toBe(7);
    expect(report.blobs).toBe(blobs.size);
  });

  it(
    'a task the embedded server was running completes on the new parts after the migration',
    { timeout: 300_000 },
    async () => {
      const env = await targetEnv();
      await migrateSqliteToPostgres({ sourceDataDir: sourceDir, target: loadConfig(env) });
      // The API works jobs itself here (no separate workers needed for this check).
      const server = await startTestServer({ ...env, WORKER_PROCESSES: '0', API_WORKS_JOBS: 'true' });
      try {
        const deadline = Date.now() + 240_000;
        let task;
        do {
          task = (await server.json('/api/tasks/?search=interrupted')).body.results[0];
          if (task.status !== 'running') break;
          await new Promise((r) => setTimeout(r, 200));
        } while (Date.now() < deadline);
        // Every image attempted once (whether the colour engine finds specimens in these pictures or not).
        expect(task.status).not.toBe('running');
        expect(task.processed_count).toBe(3);
        const results = (await server.json(`/api/predictions/?task_id=${task.id}`)).body.results as {
          image_id: number;
        }[];
        expect(results.map((r) => r.image_id).sort((a, b) => a - b)).toEqual(runningTaskImages);
      } finally {
        await server.close();
      }
    },
  );
});
