import { sql, type Kysely } from 'kysely';
import { isPostgres, withIdColumn } from './id-column.js';

/**
 * Lab models (issue 23, api.md "Labels and lab models") and what a task is told beside its parameters
 * (issue 22: `specimen_kind`).
 *
 * `models`: one trained (or training) lab model. `status` is the API's (training, ready, failed, cancelled);
 * `job_state` is the training job's delivery state (queued, running, done), the queue's business, so a
 * restart finds the trainings to resume; `attempts` counts the starts (a job that keeps failing is given up).
 * `image_ids`, `labelled_pixels`, `metrics`, `heldout` are JSON text; `file_key` is the portable model file
 * in blob storage (null until ready); `heldout` rows name their two overlay images' keys.
 *
 * `tasks.specimen_kind` (auto, root_slice, leaf), `tasks.model_id` and `tasks.model_name`: the lab model a
 * task scores with, its name copied so results keep it after the model is deleted (no foreign key, for that
 * reason).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pgMode = await isPostgres(db);
  await withIdColumn(db.schema.createTable('models'), pgMode)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('image_ids', 'text', (c) => c.notNull())
    .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('labelled_pixels', 'text', (c) => c.notNull())
    .addColumn('metrics', 'text')
    .addColumn('heldout', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('file_key', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('job_state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('models_job_state').on('models').column('job_state').execute();

  await db.schema
    .alterTable('tasks')
    .addColumn('specimen_kind', 'text', (c) => c.notNull().defaultTo(sql`'auto'`))
    .execute();
  await db.schema.alterTable('tasks').addColumn('model_id', 'integer').execute();
  await db.schema.alterTable('tasks').addColumn('model_name', 'text').execute();
  await db.schema.createIndex('tasks_model').on('tasks').column('model_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tasks_model').execute();
  await db.schema.alterTable('tasks').dropColumn('model_name').execute();
  await db.schema.alterTable('tasks').dropColumn('model_id').execute();
  await db.schema.alterTable('tasks').dropColumn('specimen_kind').execute();
  await db.schema.dropTable('models').execute();
}
