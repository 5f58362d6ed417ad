import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, TaskJobsTable } from '../db/schema.js';
import type { StoredSpecimen } from '../predictions/stored-specimens.js';

export type JobRow = Selectable<TaskJobsTable>;
type Db = Kysely<Database>;

/** A result about to be stored: a scored image, a cuts-only image, or a failed one (error_code set). */
export interface ResultRecord {
  taskId: number;
  imageId: number;
  imageName: string;
  ppdValue: number | null;
  subPpdValues: number[];
  prediction: string | null;
  confidence: number | null;
  ossKey: string | null;
  visKeys: Record<string, string>;
  /** every specimen, in index order; [] for a failed image */
  specimens: StoredSpecimen[];
  needsReview: boolean;
  errorCode: string | null;
  errorMessage: string | null;
  processingTime: number | null;
}

/** `stored`: row written and counted; `duplicate`: the image already had a row; `discarded`: task not running. */
export type RecordOutcome = { kind: 'stored'; id: number; imageDeleted: boolean } | { kind: 'duplicate' } | { kind: 'discarded' };

/** PPD >= 4 is "disease" in task statistics (api.md). */
const DISEASE_FROM = 4;

class DuplicateRow extends Error {}

/** Every SQL query of the queue: claiming jobs and recording per-image outcomes with atomic counters. */
export class JobsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims a queued job (a conditional update: only one claimer wins it). Tasks take turns: the job
   * of the task with the fewest jobs started so far goes first (oldest first among equals), so a small
   * task created behind a big one starts at the next free slot instead of after the whole big task.
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
    await this.db.updateTable('task_jobs').set({ status, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /**
   * A job stopped by a shutdown: its images without a result become a new queued job, and this one is
   * done, in one transaction. Returns whether anything was left. (pg-boss then completes the old job
   * instead of counting a failure: a job interrupted by several deploys must not end its task failed.)
   */
  async handOverRemainder(id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const job = await trx.selectFrom('task_jobs').selectAll().where('id', '=', id).executeTakeFirst();
      if (!job || job.status === 'done') return false;
      const ids = JSON.parse(job.image_ids) as number[];
      const done = await new JobsRepository(trx).imagesWithResults(job.task_id, ids);
      const missing = ids.filter((imageId) => !done.has(imageId));
      const now = new Date().toISOString();
      if (missing.length > 0) {
        await trx.insertInto('task_jobs').values({ task_id: job.task_id, image_ids: JSON.stringify(missing), status: 'queued', updated_at: now }).execute();
      }
      await trx.updateTable('task_jobs').set({ status: 'done', updated_at: now }).where('id', '=', id).execute();
      return missing.length > 0;
    });
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

  async getTask(id: number) {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Records which engine scores the task; the first job to run writes it. */
  async noteEngineLabel(taskId: number, label: string): Promise<void> {
    await this.db.updateTable('tasks').set({ engine_label: label }).where('id', '=', taskId).where('engine_label', 'is', null).execute();
  }

  async taskStatus(id: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status;
  }

  async imageForScoring(id: number) {
    return this.db.selectFrom('images').select(['id', 'name', 'blob_key']).where('id', '=', id).executeTakeFirst();
  }

  /** Which of these images already have a result in the task (a retried job skips them). */
  async imagesWithResults(taskId: number, imageIds: number[]): Promise<Set<number>> {
    const done = new Set<number>();
    for (let i = 0; i < imageIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('results')
        .select('image_id')
        .where('task_id', '=', taskId)
        .where('image_id', 'in', imageIds.slice(i, i + 500))
        .execute();
      for (const r of rows) done.add(r.image_id);
    }
    return done;
  }

  async hasResult(taskId: number, imageId: number): Promise<boolean> {
    return (await this.imagesWithResults(taskId, [imageId])).size > 0;
  }

  /**
   * Stores one image's outcome in one transaction: the result row (unique per task and image), the
   * task's counters and statistics (atomic increments: other workers may share the task), the image's
   * newest-result columns, and the task's completion when this was its last image. Nothing is written
   * unless the task is still running. An outcome for an image deleted meanwhile is stored as an
   * `image_deleted` failure instead (the caller then removes any files it wrote).
   */
  async recordResult(rec: ResultRecord): Promise<RecordOutcome> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const imageExists = (await trx.selectFrom('images').select('id').where('id', '=', rec.imageId).executeTakeFirst()) !== undefined;
        // An image gone by now is reported as deleted, whatever the attempt to score it ran into.
        const r: ResultRecord =
          imageExists || rec.errorCode === 'image_deleted'
            ? rec
            : {
                ...rec,
                ppdValue: null,
                subPpdValues: [],
                prediction: null,
                confidence: null,
                ossKey: null,
                visKeys: {},
                specimens: [],
                needsReview: false,
                errorCode: 'image_deleted',
                errorMessage: 'The image was deleted while the task was running',
              };
        const failed = r.errorCode !== null;
        const scored = !failed && r.ppdValue !== null;
        const now = new Date().toISOString();
        // The counter update doubles as the "still running?" check and, in PostgreSQL, locks the task
        // row, so a concurrent cancel either happens before (nothing stored) or after (this counts).
        const upd = await trx
          .updateTable('tasks')
          .set((eb) => ({
            processed_count: eb('processed_count', '+', 1),
            failed_count: eb('failed_count', '+', failed ? 1 : 0),
            scored_count: eb('scored_count', '+', scored ? 1 : 0),
            healthy_count: eb('healthy_count', '+', scored && (r.ppdValue as number) < DISEASE_FROM ? 1 : 0),
            disease_count: eb('disease_count', '+', scored && (r.ppdValue as number) >= DISEASE_FROM ? 1 : 0),
            confidence_sum: eb('confidence_sum', '+', scored ? (r.confidence ?? 0) : 0),
            processing_time_sum: eb('processing_time_sum', '+', r.processingTime ?? 0),
            updated_at: now,
          }))
          .where('id', '=', r.taskId)
          .where('status', '=', 'running')
          .executeTakeFirst();
        if (Number(upd.numUpdatedRows) === 0) return { kind: 'discarded' } as const;

        const inserted = await trx
          .insertInto('results')
          .values({
            task_id: r.taskId,
            image_id: r.imageId,
            image_name: r.imageName,
            image_name_lower: r.imageName.toLowerCase(),
            ppd_value: r.ppdValue,
            sub_ppd_values: JSON.stringify(r.subPpdValues),
            prediction: r.prediction,
            confidence: r.confidence,
            oss_key: r.ossKey,
            vis_keys: JSON.stringify(r.visKeys),
            specimens: JSON.stringify(r.specimens),
            specimen_count: r.specimens.length,
            needs_review: r.needsReview ? 1 : 0,
            reviewed: 0,
            engine_ppd_value: r.ppdValue,
            error_code: r.errorCode,
            error_message: r.errorMessage,
            processing_time: r.processingTime,
            created_at: now,
          })
          .onConflict((oc) => oc.columns(['task_id', 'image_id']).doNothing())
          .returning('id')
          .executeTakeFirst();
        // Another worker stored this image first: roll the counters back with the transaction.
        if (!inserted) throw new DuplicateRow();

        if (scored && imageExists) {
          await trx
            .updateTable('images')
            .set({ ppd_value: r.ppdValue, last_prediction: r.prediction, last_result_id: inserted.id })
            .where('id', '=', r.imageId)
            .where((eb) => eb.or([eb('last_result_id', 'is', null), eb('last_result_id', '<', inserted.id)]))
            .execute();
        }
        await finishIfComplete(trx, r.taskId, now);
        return { kind: 'stored', id: inserted.id, imageDeleted: !imageExists } as const;
      });
    } catch (err) {
      if (err instanceof DuplicateRow) return { kind: 'duplicate' };
      throw err;
    }
  }

  async finishIfComplete(taskId: number): Promise<void> {
    await finishIfComplete(this.db, taskId, new Date().toISOString());
  }

  /** The task itself could not run (the engine did not start): failed, with the reason. */
  async failTask(taskId: number, message: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .updateTable('tasks')
      .set({ status: 'failed', error_message: message.slice(0, 1000), completed_at: now, updated_at: now })
      .where('id', '=', taskId)
      .where('status', '=', 'running')
      .execute();
    await this.db.updateTable('task_jobs').set({ status: 'done', updated_at: now }).where('task_id', '=', taskId).execute();
  }

  /**
   * Running tasks with no open job (e.g. a job given up after repeated errors): their images without a
   * result get a new job, or the task is finished when every image has one.
   */
  async reopenStrandedTasks(): Promise<number[]> {
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
    const reopened: number[] = [];
    for (const t of stranded) {
      const ids = JSON.parse(t.image_ids) as number[];
      const done = await this.imagesWithResults(t.id, ids);
      const missing = ids.filter((id) => !done.has(id));
      if (missing.length === 0) {
        await this.finishIfComplete(t.id);
        continue;
      }
      const size = (JSON.parse(t.parameters) as { split_count: number }).split_count;
      const now = new Date().toISOString();
      for (let i = 0; i < missing.length; i += size) {
        await this.db
          .insertInto('task_jobs')
          .values({ task_id: t.id, image_ids: JSON.stringify(missing.slice(i, i + size)), status: 'queued', updated_at: now })
          .execute();
      }
      reopened.push(t.id);
    }
    return reopened;
  }
}

/** running -> completed (or failed when every image failed) once every image has been attempted. */
async function finishIfComplete(db: Db, taskId: number, now: string): Promise<void> {
  await db
    .updateTable('tasks')
    .set({
      status: sql<string>`case when failed_count >= image_count then 'failed' else 'completed' end`,
      error_message: sql<string | null>`case when failed_count >= image_count then 'Every image failed; each result gives its error_code' else null end`,
      completed_at: now,
      updated_at: now,
    })
    .where('id', '=', taskId)
    .where('status', '=', 'running')
    .where(sql<boolean>`processed_count >= image_count`)
    .execute();
}
