import type { Engine } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { openDatabase, type Db } from './db/database.js';
import { createAppEngine, deferredAppEngine, type DeferredEngine } from './engine/app-engine.js';
import { createTaskQueue } from './queue/create-queue.js';
import type { TaskQueue } from './queue/task-queue.js';
import type { BlobStorage } from './storage/blob-storage.js';
import { guardOf } from './storage/blob-guard.js';
import { createStorage } from './storage/create-storage.js';
import { DiskSpace } from './storage/disk-space.js';
import { sweepOrphanBlobs } from './maintenance/orphan-sweep.js';
import { isStorageFull } from './storage/storage-full.js';
import { sweepTempFiles } from './storage/temp-sweep.js';

/**
 * Everything a route or job handler needs, built once at start and passed explicitly
 * (no DI container). Later features add their services here.
 */
export interface AppContext {
  config: AppConfig;
  db: Db;
  storage: BlobStorage;
  log: Logger;
  startedAt: Date;
  /** the PPD engine's worker pool, shared by the queue and predict_single */
  engine: Engine;
  /** runs task jobs (embedded, or pg-boss when scaled out) */
  queue: TaskQueue;
  /** free space on DATA_DIR and the reserve that keeps deletes and starts working on a full disk */
  space: DiskSpace;
}

export interface ContextOptions {
  /** consume queued jobs in this process (default true) */
  startQueue?: boolean;
  /** start neither the engine nor the queue: `startBackgroundWork` does, once the server listens */
  deferBackgroundWork?: boolean;
}

export async function createContext(config: AppConfig, log: Logger, options: ContextOptions = {}): Promise<AppContext> {
  const space = new DiskSpace(config.dataDir, config.disk.reserveBytes, config.disk.lowBytes, log);
  // On a full disk the reserve goes first: opening the database and the temp folder need a little room.
  space.prepareForStart();
  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = await createStorage(config);
  // PostgreSQL: other API processes upload and delete the same content-addressed blobs (issue 26, point 1).
  if (config.databaseUrl) {
    const { PgBlobLocks } = await import('./storage/pg-blob-locks.js');
    guardOf(storage).shareAcrossProcesses(new PgBlobLocks(config.databaseUrl, log));
  }
  const engine = options.deferBackgroundWork ? deferredAppEngine(config, log) : await createAppEngine(config, log);
  const queue = createTaskQueue({ db, storage, engine, log }, config);
  // Interrupted tasks of a previous run resume as soon as the process is up.
  if (options.startQueue !== false && !options.deferBackgroundWork) await queue.start();
  void space.restoreReserve();
  return { config, db, storage, log, startedAt: new Date(), engine, queue, space };
}

/**
 * For a context made with `deferBackgroundWork`: starts the engine's worker threads and the queue
 * (which resumes interrupted tasks). The server calls it right after it listens, so neither competes
 * for the CPU with start-up.
 */
export async function startBackgroundWork(ctx: AppContext): Promise<void> {
  const engine = ctx.engine as Partial<DeferredEngine>;
  const sweep = sweepTempFiles(ctx.config.dataDir).then((n) => {
    if (n > 0) ctx.log.info({ files: n }, 'removed temp files left by an earlier crash');
  });
  // Orphaned blobs go once crash recovery has put interrupted tasks back to running (their files stay).
  const queue = startQueue(ctx).then(() => reclaimOrphans(ctx));
  await Promise.all([engine.start?.(), queue, sweep]);
}

/**
 * Starts the queue (which resumes interrupted tasks). On a full disk that can fail (the job rows cannot be
 * written): the server still serves, so space can be freed from the app, and the queue tries again every 30 s.
 */
async function startQueue(ctx: AppContext): Promise<void> {
  try {
    await ctx.queue.start();
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    ctx.log.error({ err }, 'the disk is full: interrupted tasks resume once space is freed');
    const retry = setTimeout(
      () =>
        void startQueue(ctx)
          .then(() => reclaimOrphans(ctx))
          .catch((e: unknown) => ctx.log.error({ err: e }, 'the queue did not start')),
      30_000,
    );
    retry.unref();
  }
}

/** Removes stored files no row refers to (a failure is logged: it must never stop the server). */
export async function reclaimOrphans(ctx: AppContext): Promise<void> {
  try {
    await sweepOrphanBlobs(ctx, ctx.config.orphanGraceMs);
  } catch (err) {
    ctx.log.warn({ err }, 'the sweep for orphaned stored files failed; it runs again at the next start');
  }
}

/** Stops the queue (in-flight jobs are queued again), then the engine's workers, then the database. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.space.settle();
  await ctx.queue.stop();
  await ctx.engine.close();
  await guardOf(ctx.storage).close();
  await ctx.db.close();
}
