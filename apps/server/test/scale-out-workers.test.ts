import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { workerEnv } from '../src/queue/pg-boss-worker-processes.js';
import { TasksService } from '../src/tasks/tasks.service.js';
import { makeSpecimenJpeg } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { entryArgs } from '../src/util/entry-args.js';

// Real worker processes on PostgreSQL + S3: runs in the scale-out pass of the server suite
// (scripts/run-tests.mjs starts the services and sets TEST_DATABASE_URL / TEST_S3_ENDPOINT).
const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_S3_ENDPOINT);
const serverDir = path.resolve(import.meta.dirname, '..');

let server: TestServer | undefined;
const workers: ChildProcess[] = [];

afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.exitCode === null && w.signalCode === null) {
      w.kill('SIGKILL');
      await new Promise((resolve) => w.once('exit', resolve));
    }
  }
  await server?.close();
  server = undefined;
});

/** An API server that works no jobs itself: only the worker processes this test starts do. */
async function startApi(): Promise<TestServer> {
  return startTestServer({ WORKER_PROCESSES: '0', API_WORKS_JOBS: 'false', JOB_EXPIRE_SECONDS: '4' });
}

/** `npm run worker` (its build when current, else its sources: util/entry-args.ts), one engine thread, same configuration as the API. */
function startWorker(api: TestServer): ChildProcess {
  const child = spawn(process.execPath, entryArgs('src/worker-main.ts'), {
    cwd: serverDir,
    env: { ...process.env, ...workerEnv(api.ctx.config), WORKERS: '1', WORKER_EXIT_WITH_PARENT: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

/** Image rows and their stored originals (uploads have their own tests): specimen photos the engine scores. */
async function seedImages(api: TestServer, count: number): Promise<number[]> {
  const pictures = await Promise.all(
    Array.from({ length: count }, (_, i) => makeSpecimenJpeg({ width: 640, height: 480, seed: i + 1 })),
  );
  const ids: number[] = [];
  for (const [i, bytes] of pictures.entries()) {
    const sha = crypto.createHash('sha256').update(bytes).digest('hex');
    const blobKey = `originals/${sha.slice(0, 2)}/${sha}.jpg`;
    await api.ctx.storage.putBuffer(blobKey, bytes, 'image/jpeg');
    const row = await api.ctx.db.kysely
      .insertInto('images')
      .values({
        name: `plot${i}.jpg`,
        name_lower: `plot${i}.jpg`,
        folder_id: null,
        size: bytes.length,
        format: 'jpeg',
        width: 640,
        height: 480,
        sha256: sha,
        blob_key: blobKey,
        thumb_key: blobKey,
        created_at: new Date().toISOString(),
        ppd_value: null,
        last_prediction: null,
        last_result_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

async function createTask(api: TestServer, imageIds: number[], splitCount: number) {
  const res = await api.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'scale-out', image_ids: imageIds, split_count: splitCount, threshold: 0.5 },
  });
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

async function waitForTask(api: TestServer, id: number, until: (t: any) => boolean, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = (await api.json(`/api/tasks/${id}/`)).body;
    if (until(t)) return t;
    if (Date.now() > deadline) throw new Error(`task ${id} stuck: ${JSON.stringify(t)}`);
    await sleep(100);
  }
}

async function resultRows(api: TestServer, taskId: number) {
  return api.ctx.db.kysely
    .selectFrom('results')
    .select(['image_id', 'error_code'])
    .where('task_id', '=', taskId)
    .execute();
}

/** pg-boss' view of the jobs: how many are being worked now, and how many were retried. */
async function pgBossJobStates(api: TestServer) {
  const r = await sql<{ active: number; retried: number }>`
    select count(*) filter (where state = 'active') as active, count(*) filter (where retry_count > 0) as retried
    from pgboss.job where name = 'task-job'`.execute(api.ctx.db.kysely);
  return { active: Number(r.rows[0]!.active), retried: Number(r.rows[0]!.retried) };
}

describe.skipIf(!enabled)('pg-boss worker processes on PostgreSQL + S3', () => {
  it(
    'two worker processes share one task and complete it with one result per image; the API works none',
    { timeout: 300_000 },
    async () => {
      server = await startApi();
      const imageIds = await seedImages(server, 12);
      const task = await createTask(server, imageIds, 2);
      // No worker yet: the API process does not work jobs, so nothing moves.
      await sleep(1500);
      expect((await server.json(`/api/tasks/${task.id}/`)).body.processed_count).toBe(0);

      startWorker(server);
      startWorker(server);
      const done = await waitForTask(server, task.id, (t) => t.status !== 'running');
      expect(done.status).toBe('completed');
      expect(done.processed_count).toBe(12);
      expect(done.progress).toBe(100);
      const rows = await resultRows(server, task.id);
      expect(rows.map((r) => r.image_id).sort((a, b) => a - b)).toEqual(imageIds);
      expect(rows.filter((r) => r.error_code !== null)).toEqual([]);
      // Result files went to the object store: each scored result's overlay is served through /media/.
      const results = (await server.json(`/api/predictions/?task_id=${task.id}&page_size=100`)).body.results as any[];
      const scored = results.filter((r) => r.result_image_url);
      for (const r of scored.slice(0, 3)) {
        const media = await server.request(r.result_image_url);
        expect(media.status).toBe(200);
        expect(media.headers.get('content-type')).toBe('image/webp');
      }
    },
  );

  it(
    'a worker killed mid-job: another takes its job over and every image is scored exactly once',
    { timeout: 300_000 },
    async () => {
      server = await startApi();
      const imageIds = await seedImages(server, 24);
      const task = await createTask(server, imageIds, 3);
      const victim = startWorker(server);
      startWorker(server);
      // Kill one worker while both hold a job (two active pg-boss jobs) and the task is under way.
      const deadline = Date.now() + 240_000;
      for (;;) {
        const t = (await server.json(`/api/tasks/${task.id}/`)).body;
        const jobs = await pgBossJobStates(server);
        if (jobs.active === 2 && t.processed_count >= 2) break;
        if (t.status !== 'running' || Date.now() > deadline)
          throw new Error(`could not catch both workers busy: ${JSON.stringify(t)}`);
        await sleep(20);
      }
      victim.kill('SIGKILL');

      const done = await waitForTask(server, task.id, (t) => t.status !== 'running');
      expect(done.status).toBe('completed');
      expect(done.processed_count).toBe(24);
      const rows = await resultRows(server, task.id);
      expect(rows).toHaveLength(24);
      expect(new Set(rows.map((r) => r.image_id)).size).toBe(24);
      expect(rows.filter((r) => r.error_code !== null)).toEqual([]);
      // The dead worker's job expired and was handed out again.
      expect((await pgBossJobStates(server)).retried).toBeGreaterThanOrEqual(1);
    },
  );

  it(
    'a worker stopped with SIGTERM mid-job hands the rest to another worker without spending a pg-boss retry',
    { timeout: 300_000 },
    async () => {
      server = await startApi();
      const imageIds = await seedImages(server, 60);
      // One job longer than JOB_EXPIRE_SECONDS (4 s here): a live job runs as long as it takes.
      const task = await createTask(server, imageIds, 60);
      const stopping = startWorker(server);
      await waitForTask(server, task.id, (t) => t.processed_count >= 2);
      const exited = new Promise((resolve) => stopping.once('exit', resolve));
      stopping.kill('SIGTERM');
      await exited;
      const atStop = (await server.json(`/api/tasks/${task.id}/`)).body;
      expect(atStop.status).toBe('running');
      expect(atStop.processed_count).toBeLessThan(60);

      startWorker(server);
      const done = await waitForTask(server, task.id, (t) => t.status !== 'running');
      expect(done.status).toBe('completed');
      expect(done.processed_count).toBe(60);
      const rows = await resultRows(server, task.id);
      expect(new Set(rows.map((r) => r.image_id)).size).toBe(60);
      expect(rows).toHaveLength(60);
      expect((await pgBossJobStates(server)).retried).toBe(0);
    },
  );

  it(
    'predict_single goes through pg-boss like any job: a worker scores it, and finishes it if the waiting request is gone',
    { timeout: 300_000 },
    async () => {
      server = await startApi();
      const [imageId, other] = await seedImages(server, 2);
      startWorker(server);
      // The API works no jobs: the answer can only come from the worker process, through the queue.
      const res = await server.json('/api/predictions/predict_single/', {
        method: 'POST',
        body: { image_id: imageId },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ image_id: imageId, error_code: null });
      expect(res.body.ppd_value).not.toBeNull();
      const jobs = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'task-job'`.execute(
        server.ctx.db.kysely,
      );
      expect(jobs.rows[0]!.n).toBeGreaterThanOrEqual(1);
      // A request that never waits (its API process died after creating the task): the job is already queued, a worker finishes it.
      const task = await new TasksService(server.ctx).createForSingle({ image_id: other! });
      const done = await waitForTask(server, task.id, (t) => t.status !== 'running');
      expect(done.status).toBe('completed');
      expect(await resultRows(server, task.id)).toEqual([{ image_id: other, error_code: null }]);
    },
  );

  it('cancel from the API stops a task that other processes are working on', { timeout: 300_000 }, async () => {
    server = await startApi();
    const imageIds = await seedImages(server, 30);
    const task = await createTask(server, imageIds, 2);
    startWorker(server);
    startWorker(server);
    await waitForTask(server, task.id, (t) => t.processed_count >= 2);
    const cancel = await server.json(`/api/tasks/${task.id}/cancel/`, { method: 'POST' });
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('cancelled');
    // Within 2 s the workers have stopped: the count no longer moves.
    await sleep(2000);
    const settled = (await server.json(`/api/tasks/${task.id}/`)).body.processed_count;
    await sleep(1500);
    const later = (await server.json(`/api/tasks/${task.id}/`)).body;
    expect(later.status).toBe('cancelled');
    expect(later.processed_count).toBe(settled);
    expect(later.processed_count).toBeLessThan(30);
    expect(await resultRows(server, task.id)).toHaveLength(later.processed_count);
  });
});
