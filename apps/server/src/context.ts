import type { Engine } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { openDatabase, type Db } from './db/database.js';
import { createAppEngine, deferredAppEngine, type DeferredEngine } from './engine/app-engine.js';
import { createTaskQueue } from './queue/create-queue.js';
import type { TaskQueue } from './queue/task-queue.js';
import type { BlobStorage } from './storage/blob-storage.js';
import { createStorage } from './storage/create-storage.js';
import { sweepOrphanBlobs } from './storage/orphan-sweep.js';
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
}

export interface ContextOptions {
  /** consume queued jobs in this process (default true) */
  startQueue?: boolean;
  /** start neither the engine nor the queue: `startBackgroundWork` does, once the server listens */
  deferBackgroundWork?: boolean;
}

export async function createContext(config: AppConfig, log: Logger, options: ContextOptions = {}): Promise<AppContext> {
  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = await createStorage(config);
  const engine = options.deferBackgroundWork ? deferredAppEngine(config, log) : await createAppEngine(config, log);
  const queue = createTaskQueue({ db, storage, engine, log }, config);
  // Interrupted tasks of a previous run resume as soon as the process is up.
  if (options.startQueue !== false && !options.deferBackgroundWork) await queue.start();
  return { config, db, storage, log, startedAt: new Date(), engine, queue };
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
  const queue = ctx.queue.start().then(() => reclaimOrphans(ctx));
  await Promise.all([engine.start?.(), queue, sweep]);
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
  await ctx.queue.stop();
  await ctx.engine.close();
  await ctx.db.close();
}
