import { loadConfigOrReport } from './config/config.js';
import { openDatabase } from './db/database.js';
import { createAppEngine } from './engine/app-engine.js';
import { createLogger } from './logger.js';
import { PgBossQueue } from './queue/pg-boss-queue.js';
import { createJobRunner } from './scoring/run-job.js';
import { createStorage } from './storage/create-storage.js';
import { stopOnce, stopOnSignals } from './util/stop-once.js';

/**
 * Worker process entry point: `npm run worker` (node apps/server/dist/worker-main.js). No HTTP: it takes
 * jobs (`split_count` images each) from pg-boss, scores them with the engine (WORKERS threads) and stores
 * results in the shared PostgreSQL and object storage. Run any number of them, on any machines, with the
 * same DATABASE_URL and S3_* as the API.
 */
async function main(): Promise<void> {
  const config = loadConfigOrReport();
  if (!config) process.exit(2);
  if (!config.databaseUrl) {
    process.stderr.write(
      'The worker needs DATABASE_URL (PostgreSQL): the embedded default runs its jobs inside the server.\n',
    );
    process.exit(2);
  }
  const log = createLogger(config.logLevel).child({ role: 'worker' });
  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = await createStorage(config);
  const engine = await createAppEngine(config, log);
  const queue = new PgBossQueue(
    { db, log, runner: createJobRunner({ db, storage, engine, log }) },
    {
      connectionString: config.databaseUrl,
      works: true,
      jobs: config.workers,
      imagesInFlight: config.workers + 2,
      jobExpireSeconds: config.scaleOut.jobExpireSeconds,
    },
  );

  const shutdown = stopOnce(async (reason) => {
    log.info({ reason }, 'worker stopping: the images left of its current jobs are handed over');
    await queue.stop();
    await engine.close();
    await db.close();
  });
  stopOnSignals(shutdown);
  // Started by an API process (WORKER_PROCESSES): never outlive it, even when it is killed.
  if (process.env.WORKER_EXIT_WITH_PARENT === '1') {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void shutdown('parent process gone');
    }, 1000).unref();
  }

  await queue.start();
  log.info({ engine: engine.info.name, storage: storage.kind, threads: config.workers }, 'worker ready');
}

main().catch((err) => {
  process.stderr.write(`CassavaScope worker failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
