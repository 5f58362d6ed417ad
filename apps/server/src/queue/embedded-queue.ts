import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { JobRunner } from '../scoring/job-runner.js';
import { createLimit, type Limit } from '../util/limiter.js';
import { ModelsRepository, MAX_TRAINING_ATTEMPTS, type ModelRow } from '../models/models.repository.js';
import { JobsRepository, type JobRow } from './jobs.repository.js';
import type { TaskQueue } from './task-queue.js';
import { isStorageFull } from '../storage/storage-full.js';

/** What a queue transport needs: the job rows' database, a logger, and the runner it delivers jobs to. */
export interface QueueDeps {
  db: Db;
  log: Logger;
  runner: JobRunner;
}

export interface EmbeddedQueueOptions {
  /** jobs run at once (default: engine workers) */
  jobs: number;
  /** images in flight across those jobs: a little more than the engine's workers keeps them all busy
   *  while the main thread stores the previous image's files and row */
  imagesInFlight: number;
}

/** A job that keeps failing (not a bad image: those are results) is given up after this many attempts. */
const MAX_ATTEMPTS = 3;
/** A job stopped by a full disk is queued again after this pause. */
const STORAGE_FULL_PAUSE_MS = 5_000;
/** A fallback poll, in case a wake-up is missed; enqueue and job completion wake the loop at once. */
const POLL_MS = 2000;

interface ActiveJob {
  taskId: number;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The in-process queue of the embedded default: job rows in the database are the queue, so work
 * survives restarts; `start` requeues jobs a killed process was running.
 */
export class EmbeddedQueue implements TaskQueue {
  readonly kind = 'embedded' as const;
  private readonly repo: JobsRepository;
  private readonly limit: Limit;
  private readonly active = new Map<number, ActiveJob>();
  private readonly models: ModelsRepository;
  /** The one training this process runs at a time (training uses every core it is given). */
  private training: { modelId: number; controller: AbortController; done: Promise<void> } | null = null;
  private stopped = true;
  private wakeUp: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;

  constructor(
    private readonly deps: QueueDeps,
    private readonly options: EmbeddedQueueOptions,
  ) {
    this.repo = new JobsRepository(deps.db.kysely);
    this.models = new ModelsRepository(deps.db.kysely);
    this.limit = createLimit(options.imagesInFlight);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    const requeued = await this.repo.requeueRunning();
    const reopened = await this.deps.runner.recoverStranded();
    if (requeued > 0 || reopened.length > 0) this.deps.log.info({ requeued, reopened }, 'resuming interrupted tasks');
    const trainings = await this.models.requeueRunningTrainings();
    if (trainings > 0) this.deps.log.info({ trainings }, 'resuming interrupted trainings');
    this.stopped = false;
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const job of this.active.values()) job.controller.abort();
    this.training?.controller.abort();
    this.wake();
    await this.loopDone;
    await Promise.all([...this.active.values()].map((j) => j.done));
    await this.training?.done;
  }

  async enqueue(_taskId: number): Promise<void> {
    this.wake();
  }

  cancel(taskId: number): void {
    for (const job of this.active.values()) if (job.taskId === taskId) job.controller.abort();
  }

  async enqueueTraining(_modelId: number): Promise<void> {
    this.wake();
  }

  cancelTraining(modelId: number): void {
    if (this.training?.modelId === modelId) this.training.controller.abort();
  }

  private wake(): void {
    const w = this.wakeUp;
    this.wakeUp = null;
    w?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        while (!this.stopped && this.active.size < this.options.jobs) {
          const job = await this.repo.claimNext();
          if (!job) break;
          this.launch(job);
        }
        if (!this.stopped && !this.training) {
          const model = await this.models.claimQueuedTraining();
          if (model) this.launchTraining(model);
        }
      } catch (err) {
        this.deps.log.error({ err }, 'queue: claiming a job failed');
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        timer.unref();
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private launch(job: JobRow): void {
    const controller = new AbortController();
    const done = this.deps.runner
      .run(job.id, {
        signal: controller.signal,
        limit: this.limit,
        concurrency: this.options.imagesInFlight,
      })
      .then(async (outcome) => {
        if (outcome === 'interrupted') await this.repo.setJobStatus(job.id, 'queued');
      })
      .catch(async (err: unknown) => {
        if (isStorageFull(err)) {
          // A full disk is no fault of the job: it waits (its task stays running, nothing recorded is lost)
          // and is queued again after a pause, however often; it never uses up the task's attempts.
          this.deps.log.warn({ err, jobId: job.id, taskId: job.task_id }, 'queue: storage full, the job waits');
          const retry = setTimeout(() => {
            if (!this.stopped)
              void this.repo.setJobStatus(job.id, 'queued').then(
                () => this.wake(),
                () => undefined,
              );
          }, STORAGE_FULL_PAUSE_MS);
          retry.unref();
          return;
        }
        this.deps.log.error({ err, jobId: job.id, taskId: job.task_id, attempt: job.attempts }, 'queue: job failed');
        try {
          if (job.attempts < MAX_ATTEMPTS) await this.repo.setJobStatus(job.id, 'queued');
          else
            await this.deps.runner.giveUp(
              job.task_id,
              `A job of this task failed ${MAX_ATTEMPTS} times: ${String(err)}`,
            );
        } catch (inner) {
          this.deps.log.error({ err: inner }, 'queue: could not record a failed job');
        }
      })
      .finally(() => {
        this.active.delete(job.id);
        this.wake();
      });
    this.active.set(job.id, { taskId: job.task_id, controller, done });
  }

  /** Runs a claimed training; a failure is retried up to MAX_TRAINING_ATTEMPTS starts, then the model fails. */
  private launchTraining(model: ModelRow): void {
    const controller = new AbortController();
    const done = this.deps.runner
      .train(model.id, controller.signal)
      .then(async (outcome) => {
        if (outcome === 'interrupted') await this.models.requeueTraining(model.id);
      })
      .catch(async (err: unknown) => {
        this.deps.log.error({ err, modelId: model.id, attempt: model.attempts }, 'queue: training failed');
        try {
          if (model.attempts < MAX_TRAINING_ATTEMPTS && !isStorageFull(err))
            await this.models.requeueTraining(model.id);
          else await this.deps.runner.giveUpTraining(model.id, `The training failed: ${errorText(err)}`);
        } catch (inner) {
          this.deps.log.error({ err: inner }, 'queue: could not record a failed training');
        }
      })
      .finally(() => {
        this.training = null;
        this.wake();
      });
    this.training = { modelId: model.id, controller, done };
  }
}

/** An error's message without its class name (what a user reads in the model's error_message). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
