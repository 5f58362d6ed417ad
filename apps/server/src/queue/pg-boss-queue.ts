import type PgBoss from 'pg-boss';
import type { AppConfig } from '../config/config.js';
import { ModelsRepository } from '../models/models.repository.js';
import { errorText } from './embedded-queue.js';
import { JobsRepository } from './jobs.repository.js';
import { createLimit, type Limit } from '../util/limiter.js';
import { surviveOutageRejections } from './pg-boss-outage.js';
import { LocalWorkerProcesses } from './pg-boss-worker-processes.js';
import type { QueueDeps } from './embedded-queue.js';
import type { TaskQueue } from './task-queue.js';

/** The pg-boss queue every process of one installation shares. */
const QUEUE = 'task-job';
/** Lab model trainings: one message per training start (models/model-training.ts). */
const TRAINING_QUEUE = 'model-training';
/** A job that keeps failing (not a bad image: those are results) is given up after this many retries. */
const RETRY_LIMIT = 3;
/**
 * How long pg-boss lets one handler run before its own timer fails the job (it has one, from the job's
 * expiry): near its 24 h maximum, since a job of 32 photos on the ONNX engine may take many minutes. Dead
 * workers are found by the heartbeat instead, after JOB_EXPIRE_SECONDS (expireStaleJobs).
 */
const HANDLER_MAX_SECONDS = 23 * 3600;
/** How often idle workers look for jobs (pg-boss' minimum is 0.5 s). */
const POLL_SECONDS = 0.5;

interface TaskJobData {
  taskJobId: number;
  taskId: number;
}

interface TrainingJobData {
  modelId: number;
}

export interface PgBossQueueOptions {
  connectionString: string;
  /** this process works jobs (worker processes; the API only with API_WORKS_JOBS) */
  works: boolean;
  /** jobs worked at once by this process */
  jobs: number;
  /** images in flight across those jobs */
  imagesInFlight: number;
  jobExpireSeconds: number;
  /** API only: recover stranded tasks and start WORKER_PROCESSES local workers */
  api?: { config: AppConfig; workerProcesses: number } | undefined;
}

/**
 * pg-boss job ids derived from the `task_jobs` row id: sending the same job twice is a no-op
 * (pg-boss inserts with ON CONFLICT DO NOTHING), so enqueue and the start-up sweep may overlap freely.
 * (requeueUnsentRunningJobs spells the same id in SQL.)
 */
export function pgBossJobId(taskJobId: number): string {
  return `00000000-0000-4000-8000-${taskJobId.toString(16).padStart(12, '0')}`;
}

/**
 * A training's pg-boss job id: from the model id and its start count, so sending twice is a no-op and a training
 * handed over after a shutdown (one more start) gets a new message.
 */
export function pgBossTrainingId(modelId: number, attempts: number): string {
  return `00000000-0000-4000-9000-${(attempts & 0xffff).toString(16).padStart(4, '0')}${modelId.toString(16).padStart(8, '0')}`;
}

/**
 * The scale-out transport: the `task_jobs` rows stay the truth (what to do, what is done); pg-boss
 * carries one message per row to whichever worker process takes it. Crash recovery: a working process
 * touches its job's `started_on` every few seconds (a heartbeat; pg-boss 10 has none of its own); a
 * job whose heartbeat stopped for JOB_EXPIRE_SECONDS is expired (expireStaleJobs) and pg-boss hands it to
 * another worker, which skips the images that already have a result (runJob). A live job may run as long
 * as it takes. A shutdown hands the images left to a new job. Cancel reaches other processes through the
 * task status, which runJob checks before every image.
 */
export class PgBossQueue implements TaskQueue {
  readonly kind = 'pg-boss' as const;
  private boss: PgBoss | null = null;
  private readonly repo: JobsRepository;
  private readonly models: ModelsRepository;
  private readonly limit: Limit;
  /** in-flight jobs of this process: a task's (modelId absent) or a training's (taskId -1) */
  private readonly active = new Map<string, { taskId: number; modelId?: number; controller: AbortController }>();
  private readonly localWorkers: LocalWorkerProcesses | null;
  private stopping = false;
  private staleSweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: QueueDeps,
    private readonly options: PgBossQueueOptions,
  ) {
    this.repo = new JobsRepository(deps.db.kysely);
    this.models = new ModelsRepository(deps.db.kysely);
    this.limit = createLimit(options.imagesInFlight);
    this.localWorkers = options.api?.workerProcesses
      ? new LocalWorkerProcesses(options.api.config, options.api.workerProcesses, deps.log)
      : null;
  }

  async start(): Promise<void> {
    if (this.boss) return;
    const { default: PgBossClass } = await import('pg-boss');
    const expire = this.options.jobExpireSeconds;
    const boss = new PgBossClass({
      connectionString: this.options.connectionString,
      max: 4,
      // Expired jobs are found by pg-boss' maintenance run (one process per interval does it).
      maintenanceIntervalSeconds: Math.max(1, Math.floor(expire / 3)),
    });
    boss.on('error', (err) => this.deps.log.error({ err }, 'pg-boss error'));
    surviveOutageRejections(this.deps.log);
    await boss.start();
    await boss.createQueue(QUEUE, {
      name: QUEUE,
      retryLimit: RETRY_LIMIT,
      retryDelay: 1,
      expireInSeconds: HANDLER_MAX_SECONDS,
    });
    await boss.createQueue(TRAINING_QUEUE, {
      name: TRAINING_QUEUE,
      retryLimit: RETRY_LIMIT,
      retryDelay: 1,
      expireInSeconds: HANDLER_MAX_SECONDS,
    });
    this.boss = boss;
    this.staleSweep = setInterval(() => void this.expireStaleJobs(), Math.max(1000, (expire * 1000) / 2));
    this.staleSweep.unref();

    if (this.options.api) {
      const reopened = await this.deps.runner.recoverStranded();
      if (reopened.length > 0) this.deps.log.info({ reopened }, 'reopened tasks whose jobs were given up');
    }
    // Jobs committed but never handed to pg-boss (a crash between the two) are sent now.
    const sent = (await this.sendQueuedJobs()) + (await this.sendQueuedTrainings());
    if (sent > 0) this.deps.log.info({ sent }, 'queued jobs handed to pg-boss');
    if (this.options.works) {
      for (let i = 0; i < this.options.jobs; i++) {
        await boss.work<TaskJobData>(
          QUEUE,
          { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true },
          (jobs) => this.handle(jobs),
        );
      }
      // One training at a time per process: a training uses every core it is given.
      await boss.work<TrainingJobData>(
        TRAINING_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) await this.handleTraining(job);
        },
      );
    }
    // The local workers also start for work already under way: a job of a worker killed by the last stop
    // (SIGKILL after its grace period, mid-training) is expired and retried, and needs a worker to take it.
    if (this.localWorkers && (sent > 0 || (await this.workUnderWay()))) await this.localWorkers.ensureStarted();
  }

  private async workUnderWay(): Promise<boolean> {
    return (await this.repo.anyUnfinishedJob()) || (await this.models.anyTraining());
  }

  async stop(): Promise<void> {
    if (!this.boss || this.stopping) return;
    this.stopping = true;
    if (this.staleSweep) clearInterval(this.staleSweep);
    this.staleSweep = null;
    for (const job of this.active.values()) job.controller.abort();
    // graceful: wait for the handlers, which stop after their current image.
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    this.boss = null;
    await this.localWorkers?.stop();
    this.stopping = false;
  }

  async enqueue(taskId: number): Promise<void> {
    // Stopped: the job rows wait in the database; start() sends every queued one.
    if (!this.boss || this.stopping) return;
    await this.sendQueuedJobs(taskId);
    await this.localWorkers?.ensureStarted();
  }

  cancel(taskId: number): void {
    for (const job of this.active.values()) if (job.taskId === taskId) job.controller.abort();
  }

  async enqueueTraining(modelId: number): Promise<void> {
    if (!this.boss || this.stopping) return;
    await this.sendQueuedTrainings(modelId);
    await this.localWorkers?.ensureStarted();
  }

  cancelTraining(modelId: number): void {
    for (const job of this.active.values()) if (job.modelId === modelId) job.controller.abort();
  }

  /** Sends a pg-boss job for every queued training (or one model's). */
  private async sendQueuedTrainings(modelId?: number): Promise<number> {
    if (!this.boss) throw new Error('the pg-boss queue is not started');
    const rows = await this.models.queuedTrainings(modelId);
    if (rows.length === 0) return 0;
    await this.boss.insert(
      rows.map((r) => ({
        id: pgBossTrainingId(r.id, r.attempts),
        name: TRAINING_QUEUE,
        data: { modelId: r.id } satisfies TrainingJobData,
        expireInSeconds: HANDLER_MAX_SECONDS,
        retryLimit: RETRY_LIMIT,
        retryDelay: 1,
      })),
    );
    return rows.length;
  }

  /**
   * One training. A dead worker's job is expired by the heartbeat sweep and retried by pg-boss (the training
   * starts over); a shutdown queues it again under a new message; a training that keeps failing fails its model.
   */
  private async handleTraining(job: PgBoss.JobWithMetadata<TrainingJobData>): Promise<void> {
    const { modelId } = job.data;
    if (!(await this.models.markJobRunning(modelId))) return;
    const controller = new AbortController();
    this.active.set(job.id, { taskId: -1, modelId, controller });
    const heartbeat = this.startHeartbeat(job.id, TRAINING_QUEUE);
    try {
      const outcome = await this.deps.runner.train(modelId, controller.signal);
      if (outcome === 'interrupted') {
        await this.models.requeueTraining(modelId);
        await this.sendQueuedTrainings(modelId).catch((err: unknown) =>
          this.deps.log.warn({ err, modelId }, 'the interrupted training waits for the next start-up sweep'),
        );
      }
    } catch (err) {
      this.deps.log.error({ err, modelId, retry: job.retryCount }, 'pg-boss training failed');
      if (job.retryCount >= job.retryLimit && !controller.signal.aborted)
        await this.deps.runner.giveUpTraining(modelId, `The training failed: ${errorText(err)}`);
      throw err;
    } finally {
      clearInterval(heartbeat);
      this.active.delete(job.id);
    }
  }

  /** Sends a pg-boss job for every queued `task_jobs` row of running tasks (or of one task). */
  private async sendQueuedJobs(taskId?: number): Promise<number> {
    if (!this.boss) throw new Error('the pg-boss queue is not started');
    const rows = await this.repo.queuedJobsOfRunningTasks(taskId);
    // Tasks take turns: the k-th job of every task gets priority -k (pg-boss hands out the highest
    // priority first, then the oldest), so a small task created behind a big one does not wait for all of it.
    const nth = new Map<number, number>();
    const priorityOf = (taskId: number) => {
      const k = nth.get(taskId) ?? 0;
      nth.set(taskId, k + 1);
      return -k;
    };
    const jobs = rows.map((r) => ({ ...r, priority: priorityOf(r.task_id) }));
    for (let i = 0; i < jobs.length; i += 500) {
      await this.boss.insert(
        jobs.slice(i, i + 500).map((r) => ({
          id: pgBossJobId(r.id),
          name: QUEUE,
          priority: r.priority,
          data: { taskJobId: r.id, taskId: r.task_id } satisfies TaskJobData,
          // Per job, so this process's settings hold even if the queue was created with others.
          expireInSeconds: HANDLER_MAX_SECONDS,
          retryLimit: RETRY_LIMIT,
          retryDelay: 1,
        })),
      );
    }
    return rows.length;
  }

  private async handle(jobs: PgBoss.JobWithMetadata<TaskJobData>[]): Promise<void> {
    // batchSize 1: one job per handler call; several handlers run when `jobs` > 1.
    for (const job of jobs) await this.handleOne(job);
  }

  private async handleOne(job: PgBoss.JobWithMetadata<TaskJobData>): Promise<void> {
    const { taskJobId, taskId } = job.data;
    const controller = new AbortController();
    this.active.set(job.id, { taskId, controller });
    const heartbeat = this.startHeartbeat(job.id);
    try {
      await this.repo.setJobStatus(taskJobId, 'running');
      const outcome = await this.deps.runner.run(taskJobId, {
        signal: controller.signal,
        limit: this.limit,
        concurrency: this.options.imagesInFlight,
      });
      if (outcome === 'interrupted') {
        // Shutdown: the images left go to a new job for another process, and this pg-boss job completes.
        // (Failing it would spend a retry: a few deploys during one long job would end its task failed.)
        if (await this.deps.runner.handOverRemainder(taskJobId)) {
          await this.sendQueuedJobs(taskId).catch((err: unknown) =>
            this.deps.log.warn({ err, taskId }, 'the rest of an interrupted job waits for the next start-up sweep'),
          );
        }
        this.deps.log.info({ taskJobId, taskId }, 'job interrupted by shutdown: its remaining images were handed over');
      }
    } catch (err) {
      this.deps.log.error({ err, taskJobId, taskId, retry: job.retryCount }, 'pg-boss job failed');
      if (job.retryCount >= job.retryLimit && !controller.signal.aborted) {
        await this.deps.runner.giveUp(taskId, `A job of this task failed ${job.retryLimit + 1} times: ${String(err)}`);
      }
      throw err;
    } finally {
      clearInterval(heartbeat);
      this.active.delete(job.id);
    }
  }

  /**
   * A job whose heartbeat stopped JOB_EXPIRE_SECONDS ago (its process died) is dated back past its expiry,
   * so pg-boss' maintenance retries it at once and another worker takes it. Every process runs this; the
   * statement is idempotent.
   */
  private async expireStaleJobs(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    await boss
      .getDb()
      .executeSql(
        `UPDATE pgboss.job SET started_on = now() - interval '48 hours'
         WHERE name IN ($1, $3) AND state = 'active' AND started_on < now() - $2 * interval '1 second'`,
        [QUEUE, this.options.jobExpireSeconds, TRAINING_QUEUE],
      )
      .catch((err: unknown) => this.deps.log.warn({ err }, 'could not expire the jobs of dead workers'));
  }

  /** Keeps a live job from expiring: moves its pg-boss `started_on` forward while this process works on it. */
  private startHeartbeat(jobId: string, queue = QUEUE): NodeJS.Timeout {
    const every = Math.max(1000, (this.options.jobExpireSeconds * 1000) / 4);
    const timer = setInterval(() => {
      const boss = this.boss;
      if (!boss) return;
      boss
        .getDb()
        .executeSql(`UPDATE pgboss.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active'`, [
          queue,
          jobId,
        ])
        .catch((err: unknown) => this.deps.log.warn({ err, jobId }, 'pg-boss heartbeat failed'));
    }, every);
    timer.unref();
    return timer;
  }
}

/** The API process's pg-boss queue (create-queue.ts picks it when DATABASE_URL is set). */
export function createPgBossQueue(deps: QueueDeps, config: AppConfig): PgBossQueue {
  if (!config.databaseUrl) throw new Error('pg-boss needs DATABASE_URL');
  return new PgBossQueue(deps, {
    connectionString: config.databaseUrl,
    works: config.scaleOut.apiWorksJobs,
    jobs: config.workers,
    imagesInFlight: config.workers + 2,
    jobExpireSeconds: config.scaleOut.jobExpireSeconds,
    api: { config, workerProcesses: config.scaleOut.workerProcesses },
  });
}
