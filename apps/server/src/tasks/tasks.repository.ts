import { sql, type Kysely, type Selectable } from 'kysely';
import type { PredictionParameters } from '@cassavascope/contract';
import type { Database, TasksTable } from '../db/schema.js';
import { likeContains } from '../images/images.repository.js';
import { resultFileKeys } from '../predictions/results-cleanup.js';
import type { TaskTypeName } from './task-payload.schema.js';

export type TaskRow = Selectable<TasksTable>;
type Db = Kysely<Database>;

export interface NewTask {
  name: string;
  type: TaskTypeName;
  algorithm: string;
  modelType: string;
  imageIds: number[];
  parameters: PredictionParameters;
}

export interface TaskListFilter {
  status?: string | undefined;
  search?: string | undefined;
}

/** Rows inserted per statement when a big task is split into jobs (SQLite's variable limit). */
const INSERT_CHUNK = 200;

/** Every SQL query about tasks and their jobs. */
export class TasksRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the task and its jobs (`split_count` images each) in one transaction, so a task never
   * exists without its work. `jobStatus` is `running` for predict_single (run at once by the caller).
   */
  async insertWithJobs(task: NewTask, jobStatus: 'queued' | 'running' = 'queued'): Promise<TaskRow> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('tasks')
        .values({
          name: task.name,
          name_lower: task.name.toLowerCase(),
          type: task.type,
          status: 'running',
          algorithm: task.algorithm,
          model_type: task.modelType,
          image_ids: JSON.stringify(task.imageIds),
          image_count: task.imageIds.length,
          parameters: JSON.stringify(task.parameters),
          error_message: null,
          created_at: now,
          updated_at: now,
          completed_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const size = task.parameters.split_count;
      const jobs = [];
      for (let i = 0; i < task.imageIds.length; i += size) {
        jobs.push({
          task_id: row.id,
          image_ids: JSON.stringify(task.imageIds.slice(i, i + size)),
          status: jobStatus,
          updated_at: now,
        });
      }
      for (let i = 0; i < jobs.length; i += INSERT_CHUNK) {
        await trx.insertInto('task_jobs').values(jobs.slice(i, i + INSERT_CHUNK)).execute();
      }
      return row;
    });
  }

  async jobIdsOf(taskId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('task_jobs').select('id').where('task_id', '=', taskId).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  async get(id: number): Promise<TaskRow | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private filtered(filter: TaskListFilter) {
    let q = this.db.selectFrom('tasks');
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.search) q = q.where(sql<boolean>`name_lower like ${likeContains(filter.search)} escape '\\'`);
    return q;
  }

  async count(filter: TaskListFilter): Promise<number> {
    const row = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Newest first. */
  async listPage(filter: TaskListFilter, limit: number, offset: number): Promise<TaskRow[]> {
    return this.filtered(filter).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  /** Tasks per status over every task (the status index answers it). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('tasks')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  async countAll(): Promise<number> {
    const row = await this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async rename(id: number, name: string): Promise<TaskRow | undefined> {
    return this.db
      .updateTable('tasks')
      .set({ name, name_lower: name.toLowerCase(), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * running -> cancelled, atomically (only one caller wins). Queued jobs are closed; a running job
   * sees the status and stops before its next image. Returns false when the task was not running.
   */
  async cancel(id: number): Promise<boolean> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('tasks')
        .set({ status: 'cancelled', completed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('task_jobs')
        .set({ status: 'done', updated_at: now })
        .where('task_id', '=', id)
        .where('status', '=', 'queued')
        .execute();
      return true;
    });
  }

  /**
   * Deletes the task, its jobs and its results in one transaction; images whose newest result was
   * among them get their PPD columns from their next newest scored result (or none). Returns the stored file
   * keys of those results, which the caller deletes after commit.
   */
  async deleteWithResults(id: number): Promise<string[] | null> {
    return this.db.transaction().execute(async (trx) => {
      const task = await trx.selectFrom('tasks').select('id').where('id', '=', id).executeTakeFirst();
      if (!task) return null;
      const rows = await trx
        .selectFrom('results')
        .select(['id', 'image_id', 'oss_key', 'vis_keys', 'specimens'])
        .where('task_id', '=', id)
        .execute();
      // Images whose newest result belongs to this task fall back to their newest scored result elsewhere.
      await trx
        .updateTable('images')
        .set((eb) => {
          const newest = eb
            .selectFrom('results as r')
            .whereRef('r.image_id', '=', 'images.id')
            .where('r.ppd_value', 'is not', null)
            .where('r.task_id', '<>', id)
            .orderBy('r.id', 'desc')
            .limit(1);
          return {
            ppd_value: newest.select('r.ppd_value'),
            last_prediction: newest.select('r.prediction'),
            last_result_id: newest.select('r.id'),
          };
        })
        .where('images.last_result_id', 'in', trx.selectFrom('results').select('results.id').where('results.task_id', '=', id))
        .execute();
      await trx.deleteFrom('results').where('task_id', '=', id).execute();
      await trx.deleteFrom('task_jobs').where('task_id', '=', id).execute();
      await trx.deleteFrom('tasks').where('id', '=', id).execute();
      return rows.flatMap(resultFileKeys);
    });
  }
}
