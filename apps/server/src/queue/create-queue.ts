import type { AppConfig } from '../config/config.js';
import { createJobRunner, type JobDeps } from '../scoring/run-job.js';
import { EmbeddedQueue } from './embedded-queue.js';
import { createPgBossQueue } from './pg-boss-queue.js';
import type { TaskQueue } from './task-queue.js';

/**
 * The embedded queue by default (the pg-boss transport plugs in here for scale-out). Either only delivers:
 * the jobs it carries are done by the scoring job runner.
 */
export function createTaskQueue(deps: JobDeps, config: AppConfig): TaskQueue {
  const queueDeps = { db: deps.db, log: deps.log, runner: createJobRunner(deps) };
  if (config.databaseUrl) return createPgBossQueue(queueDeps, config);
  return new EmbeddedQueue(queueDeps, { jobs: config.workers, imagesInFlight: config.workers + 2 });
}
