import type { Kysely, Selectable } from 'kysely';
import type { Database, TaskJobsTable } from '../db/schema.js';
import { storedTaskParameters } from '../tasks/task-parameters.js';

export type JobRow = Selectable<TaskJobsTable>;
type Db = Kysely<Database>;

/** Rows inserted per statement when a big task is split into jobs (SQLite's variable limit). */
const INSERT_CHUNK = 200;

/**
 * The one writer of job rows (`task_jobs`): creating a task's jobs, claiming them, their status, handing
 * over the rest of an interrupted job. Jobs are the queue's business only: what a job does with its
 * images (scores, results, counters) belongs to `scoring/`, the results' owner and the task state.
 */
export class JobsRepository {
  constructor(private readonly db: Db) {}

  /** A task's jobs of `size` images each; inside the transaction that creates the task. */
  async insertJobs(taskId: number, imageIds: number[], size: number, now: string): Promise<void> {
    const jobs = [];
    for (let i = 0; i < imageIds.length; i += size) {
      jobs.push({
        task_id: taskId,
        image_ids: JSON.stringify(imageIds.slice(i, i + size)),
        status: 'queued',
        updated_at: now,
      });
    }
    for (let i = 0; i < jobs.length; i += INSERT_CHUNK)
      await this.db
        .insertInto('task_jobs')
        .values(jobs.slice(i, i + INSERT_CHUNK))
        .execute();
  }

  /**
   * Claims a queued job (a conditional update: only one claimer wins it). Tasks take turns: the job
   * of the task with the fewest jobs started so far goes first (oldest first among equals), so a small
   * task created behind a big one (predict_single's one-image task) starts at the next free slot.
   */
  async claimNext(): Promise<JobRow | undefined> {
    for (;;) {
      const next = await this.db
        .selectFrom('task_jobs as j')
        .selectAll('j')
        .where('j.status', '=', 'queued')
        .orderBy((eb) =>
          eb
            .selectFrom('task_jobs as r')
            .select((e) => e.fn.countAll().as('n'))
            .whereRef('r.task_id', '=', 'j.task_id')
            .where('r.status', 'in', ['running', 'done']),
        )
        .orderBy('j.id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return undefined;
      const res = await this.db
        .updateTable('task_jobs')
        .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), updated_at: new Date().toISOString() }))
        .where('id', '=', next.id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) return { ...next, status: 'running', attempts: next.attempts + 1 };
    }
  }

  async getJob(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('task_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setJobStatus(id: number, status: 'queued' | 'running' | 'done'): Promise<void> {
    await this.db
      .updateTable('task_jobs')
      .set({ status, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Queued jobs of running tasks (or of one task), oldest first: what the pg-boss transport sends. */
  async queuedJobsOfRunningTasks(taskId?: number): Promise<{ id: number; task_id: number }[]> {
    let q = this.db
      .selectFrom('task_jobs')
      .innerJoin('tasks', 'tasks.id', 'task_jobs.task_id')
      .select(['task_jobs.id as id', 'task_jobs.task_id as task_id'])
      .where('task_jobs.status', '=', 'queued')
      .where('tasks.status', '=', 'running')
      .orderBy('task_jobs.id');
    if (taskId !== undefined) q = q.where('task_jobs.task_id', '=', taskId);
    return q.execute();
  }

  /** Whether a running task still has a job not done (queued, or taken by a process that may have died). */
  async anyUnfinishedJob(): Promise<boolean> {
    const row = await this.db
      .selectFrom('task_jobs')
      .innerJoin('tasks', 'tasks.id', 'task_jobs.task_id')
      .select('task_jobs.id')
      .where('task_jobs.status', '!=', 'done')
      .where('tasks.status', '=', 'running')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A task that stopped (cancelled, failed): its queued jobs (or all of them) are closed. */
  async closeJobsOf(taskId: number, onlyQueued: boolean, now = new Date().toISOString()): Promise<void> {
    let q = this.db.updateTable('task_jobs').set({ status: 'done', updated_at: now }).where('task_id', '=', taskId);
    if (onlyQueued) q = q.where('status', '=', 'queued');
    await q.execute();
  }

  async deleteJobsOf(taskId: number): Promise<void> {
    await this.db.deleteFrom('task_jobs').where('task_id', '=', taskId).execute();
  }

  /**
   * A job stopped by a shutdown hands over `missing`, its images without a result (the caller reads them from the
   * results' owner in the same transaction): they become a new queued job, and this one is done.
   */
  async handOver(job: JobRow, missing: number[], now = new Date().toISOString()): Promise<void> {
    if (missing.length > 0) {
      await this.db
        .insertInto('task_jobs')
        .values({ task_id: job.task_id, image_ids: JSON.stringify(missing), status: 'queued', updated_at: now })
        .execute();
    }
    await this.db.updateTable('task_jobs').set({ status: 'done', updated_at: now }).where('id', '=', job.id).execute();
  }

  /** At start of the embedded queue (the only consumer): jobs a dead process was running are queued again. */
  async requeueRunning(): Promise<number> {
    const res = await this.db
      .updateTable('task_jobs')
      .set({ status: 'queued', updated_at: new Date().toISOString() })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /**
   * Running tasks with no open job (e.g. a job given up after repeated errors), with their images and job size:
   * the job runner gives their images without a result new jobs (`recoverStranded`).
   */
  async strandedTasks(): Promise<{ id: number; imageIds: number[]; splitCount: number }[]> {
    const stranded = await this.db
      .selectFrom('tasks')
      .select(['id', 'image_ids', 'parameters'])
      .where('status', '=', 'running')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('task_jobs')
              .select('task_jobs.id')
              .whereRef('task_jobs.task_id', '=', 'tasks.id')
              .where('task_jobs.status', 'in', ['queued', 'running']),
          ),
        ),
      )
      .execute();
    return stranded.map((t) => ({
      id: t.id,
      imageIds: JSON.parse(t.image_ids) as number[],
      splitCount: storedTaskParameters(t.parameters).split_count,
    }));
  }
}
