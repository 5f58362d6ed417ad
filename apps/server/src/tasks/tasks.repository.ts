import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { labModelLabel, type PredictionParameters, type TaskSpecimenKind } from '@cassavascope/contract';
import type { Database, TasksTable } from '../db/schema.js';
import { likeContains } from '../db/sql-filters.js';
import type { TaskTypeName } from '../http/task-payload.schema.js';

export type TaskRow = Selectable<TasksTable>;
/** A new task's status columns, as the task state (task-state.ts `initial`) gives them. */
export type TaskInitialState = Pick<Insertable<TasksTable>, 'status' | 'error_message' | 'completed_at' | 'updated_at'>;
type Db = Kysely<Database>;

export interface NewTask {
  name: string;
  type: TaskTypeName;
  algorithm: string;
  modelType: string;
  imageIds: number[];
  parameters: PredictionParameters;
  /** the signed-in user who asked for it (null while sign-in is off) */
  createdBy?: number | null | undefined;
  /** what the photos show (default auto) */
  specimenKind?: TaskSpecimenKind | undefined;
  /** the lab model it scores with, and its name (null: the default engine) */
  model?: { id: number; name: string } | null | undefined;
}

export interface TaskListFilter {
  status?: string | undefined;
  search?: string | undefined;
}

/**
 * Task rows: creation, reading, renaming, deletion. A leaf (docs/architecture.md, "Floors"): a task's status and
 * counters are written only by the task state (task-state.ts), its jobs only by the queue's JobsRepository, its
 * results only by the results' owner; the tasks service opens the transactions that call them together.
 */
export class TasksRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the task with its initial state (task-state.ts `initial`), in the caller's transaction; the caller
   * inserts its jobs in the same one, so a task never exists without its work.
   */
  async insert(task: NewTask, initialState: TaskInitialState, now: string): Promise<TaskRow> {
    return this.db
      .insertInto('tasks')
      .values({
        name: task.name,
        name_lower: task.name.toLowerCase(),
        type: task.type,
        algorithm: task.algorithm,
        model_type: task.modelType,
        image_ids: JSON.stringify(task.imageIds),
        image_count: task.imageIds.length,
        parameters: JSON.stringify(task.parameters),
        created_at: now,
        created_by: task.createdBy ?? null,
        specimen_kind: task.specimenKind ?? 'auto',
        model_id: task.model?.id ?? null,
        model_name: task.model?.name ?? null,
        ...initialState,
        // A lab model's task is labelled with it from the start (the job keeps a label it finds).
        ...(task.model ? { engine_label: labModelLabel(task.model.name) } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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

  /** Which of these tasks are running. */
  async runningAmong(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('tasks')
      .select('id')
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Running tasks that score with this lab model. */
  async runningWithModel(modelId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('tasks')
      .select('id')
      .where('model_id', '=', modelId)
      .where('status', '=', 'running')
      .execute();
    return rows.map((r) => r.id);
  }

  /** The lab model each of these tasks scored with (the results' `model`). */
  async modelsOf(taskIds: number[]): Promise<Map<number, { id: number; name: string }>> {
    const out = new Map<number, { id: number; name: string }>();
    const ids = [...new Set(taskIds)];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('tasks')
        .select(['id', 'model_id', 'model_name'])
        .where('id', 'in', ids.slice(i, i + 500))
        .where('model_id', 'is not', null)
        .execute();
      for (const r of rows) if (r.model_id !== null) out.set(r.id, { id: r.model_id, name: r.model_name ?? '' });
    }
    return out;
  }

  /** Each task's specimen kind and lab model name (null: the default engine): the export's columns. */
  async engineChoicesOf(taskIds: number[]): Promise<Map<number, { specimenKind: string; modelName: string | null }>> {
    const out = new Map<number, { specimenKind: string; modelName: string | null }>();
    const ids = [...new Set(taskIds)];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('tasks')
        .select(['id', 'specimen_kind', 'model_name'])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.id, { specimenKind: r.specimen_kind, modelName: r.model_name });
    }
    return out;
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

  /** True when the task exists (read in the caller's transaction before a delete). */
  async exists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('tasks').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Deletes the task row, in the caller's transaction (its jobs and results go first, through their owners). */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('tasks').where('id', '=', id).execute();
  }
}
