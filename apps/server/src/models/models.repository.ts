import type { Kysely, Selectable } from 'kysely';
import type { Database, ModelsTable } from '../db/schema.js';

export type ModelRow = Selectable<ModelsTable>;
type Db = Kysely<Database>;

/** A held-out photo as stored: the overlays are blob keys (the API gives URLs). */
export interface StoredHeldout {
  image_id: number;
  labels_ppd: number;
  model_ppd: number;
  baseline_ppd: number;
  model_overlay_key: string | null;
  baseline_overlay_key: string | null;
}

export interface NewModel {
  name: string;
  imageIds: number[];
  labelledPixels: Record<string, number>;
  createdBy: number | null;
}

/** A model from a file (POST /models/import/): ready at once. */
export interface ImportedModel {
  name: string;
  imageCount: number;
  labelledPixels: Record<string, number>;
  metrics: Record<string, number> | null;
  fileSize: number;
  createdBy: number | null;
}

/** What a finished training writes. */
export interface TrainedModelRecord {
  fileKey: string;
  fileSize: number;
  imageCount: number;
  labelledPixels: Record<string, number>;
  metrics: Record<string, number> | null;
  heldout: StoredHeldout[];
}

/** Give up a training after this many starts (a crash each time is a fault of the job, not of the server). */
export const MAX_TRAINING_ATTEMPTS = 3;

/**
 * The one writer of `models` rows: the model's status (training -> ready | failed | cancelled, each leaving
 * `training` once, by a conditional update) and its training job's delivery state (`job_state`).
 */
export class ModelsRepository {
  constructor(private readonly db: Db) {}

  /** A model to train: `training`, its job queued. */
  async insertTraining(m: NewModel): Promise<ModelRow> {
    const now = new Date().toISOString();
    return this.db
      .insertInto('models')
      .values({
        name: m.name,
        status: 'training',
        progress: 0,
        image_ids: JSON.stringify(m.imageIds),
        image_count: m.imageIds.length,
        labelled_pixels: JSON.stringify(m.labelledPixels),
        job_state: 'queued',
        created_by: m.createdBy,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * An imported model's row, ready, without its file yet: in the caller's transaction, which writes the file for
   * the new id and records its key (`setFileKey`), so a failed write leaves no row.
   */
  async insertReady(m: ImportedModel): Promise<ModelRow> {
    const now = new Date().toISOString();
    return this.db
      .insertInto('models')
      .values({
        name: m.name,
        status: 'ready',
        progress: 100,
        image_ids: '[]',
        image_count: m.imageCount,
        labelled_pixels: JSON.stringify(m.labelledPixels),
        metrics: m.metrics ? JSON.stringify(m.metrics) : null,
        file_size: m.fileSize,
        job_state: 'done',
        created_by: m.createdBy,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Records the key of the model's file (an import, in its transaction). */
  async setFileKey(id: number, key: string): Promise<ModelRow> {
    return this.db
      .updateTable('models')
      .set({ file_key: key })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  get(id: number): Promise<ModelRow | undefined> {
    return this.db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('models')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Newest first. */
  listPage(limit: number, offset: number): Promise<ModelRow[]> {
    return this.db.selectFrom('models').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  rename(id: number, name: string): Promise<ModelRow | undefined> {
    return this.db
      .updateTable('models')
      .set({ name, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('models').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** training -> `status` (cancelled or failed), its job closed; false when it was not training. */
  async stopTraining(id: number, status: 'cancelled' | 'failed', message: string | null): Promise<boolean> {
    const res = await this.db
      .updateTable('models')
      .set({ status, error_message: message, job_state: 'done', updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'training')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** training -> ready with what the training made; false when it stopped meanwhile (cancelled). */
  async finishTraining(id: number, t: TrainedModelRecord): Promise<boolean> {
    const res = await this.db
      .updateTable('models')
      .set({
        status: 'ready',
        progress: 100,
        file_key: t.fileKey,
        file_size: t.fileSize,
        image_count: t.imageCount,
        labelled_pixels: JSON.stringify(t.labelledPixels),
        metrics: t.metrics ? JSON.stringify(t.metrics) : null,
        heldout: JSON.stringify(t.heldout),
        error_message: null,
        job_state: 'done',
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .where('status', '=', 'training')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async setProgress(id: number, progress: number): Promise<void> {
    await this.db
      .updateTable('models')
      .set({ progress, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'training')
      .execute();
  }

  async status(id: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('models').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status;
  }

  // The training job's delivery (the queue's side).

  /** Claims a queued training (a conditional update: one claimer wins), oldest first. */
  async claimQueuedTraining(): Promise<ModelRow | undefined> {
    for (;;) {
      const next = await this.db
        .selectFrom('models')
        .selectAll()
        .where('job_state', '=', 'queued')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return undefined;
      if (await this.markJobRunning(next.id, 'queued'))
        return { ...next, job_state: 'running', attempts: next.attempts + 1 };
    }
  }

  /** job_state -> running with one more attempt (from `from`, or from anything but done); false when not so. */
  async markJobRunning(id: number, from?: 'queued'): Promise<boolean> {
    let q = this.db
      .updateTable('models')
      .set((eb) => ({ job_state: 'running', attempts: eb('attempts', '+', 1), updated_at: new Date().toISOString() }))
      .where('id', '=', id)
      .where('status', '=', 'training');
    q = from ? q.where('job_state', '=', from) : q.where('job_state', '!=', 'done');
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** A training stopped by a shutdown (or a failure to retry) waits for the next claimer, progress back to 0. */
  async requeueTraining(id: number): Promise<void> {
    await this.db
      .updateTable('models')
      .set({ job_state: 'queued', progress: 0, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'training')
      .execute();
  }

  /** At start of the embedded queue (the only consumer): trainings a dead process was running are queued again. */
  async requeueRunningTrainings(): Promise<number> {
    const res = await this.db
      .updateTable('models')
      .set({ job_state: 'queued', progress: 0, updated_at: new Date().toISOString() })
      .where('job_state', '=', 'running')
      .where('status', '=', 'training')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Whether a training is queued or under way (someone must be there to run it). */
  async anyTraining(): Promise<boolean> {
    const row = await this.db
      .selectFrom('models')
      .select('id')
      .where('status', '=', 'training')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Ids of the trainings waiting for delivery (what the pg-boss transport sends at start). */
  async queuedTrainings(id?: number): Promise<{ id: number; attempts: number }[]> {
    let q = this.db
      .selectFrom('models')
      .select(['id', 'attempts'])
      .where('job_state', '=', 'queued')
      .where('status', '=', 'training');
    if (id !== undefined) q = q.where('id', '=', id);
    return q.orderBy('id').execute();
  }

  /**
   * Every model with the files it names in storage: its portable file (with the size written with it) and its
   * held-out overlays (for the storage check; a lab has tens of models, so no paging).
   */
  async storedFiles(): Promise<
    { id: number; name: string; status: string; files: { key: string; size: number | null }[] }[]
  > {
    const rows = await this.db
      .selectFrom('models')
      .select(['id', 'name', 'status', 'file_key', 'file_size', 'heldout'])
      .orderBy('id')
      .execute();
    return rows.map((r) => {
      const files: { key: string; size: number | null }[] = r.file_key ? [{ key: r.file_key, size: r.file_size }] : [];
      let heldout: StoredHeldout[];
      try {
        heldout = JSON.parse(r.heldout) as StoredHeldout[];
      } catch {
        heldout = [];
      }
      for (const h of Array.isArray(heldout) ? heldout : []) {
        for (const key of [h.model_overlay_key, h.baseline_overlay_key]) if (key) files.push({ key, size: null });
      }
      return { id: r.id, name: r.name, status: r.status, files };
    });
  }
}
