import type { AppConfig } from '../config/config.js';
import { EmbeddedQueue } from './embedded-queue.js';
import { createPgBossQueue } from './pg-boss-queue.js';
import type { JobDeps } from './run-job.js';
import type { TaskQueue } from './task-queue.js';

/** The embedded queue by default (the pg-boss transport plugs in here for scale-out). */
export function createTaskQueue(deps: JobDeps, config: AppConfig): TaskQueue {
  if (config.databaseUrl) return createPgBossQueue(deps, config);
  return new EmbeddedQueue(deps, { jobs: config.workers, imagesInFlight: config.workers + 2 });
}
