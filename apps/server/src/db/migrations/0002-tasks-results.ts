import type { Kysely } from 'kysely';
import { isPostgres, withIdColumn } from './id-column.js';

/**
 * Tasks, their jobs (the persisted queue: `split_count` images each) and one result row per (task, image).
 * Counters live on the task row and only ever grow by atomic increments, so several workers can share a
 * task and progress never goes backwards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pgMode = await isPostgres(db);
  await withIdColumn(db.schema.createTable('tasks'), pgMode)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('model_type', 'text', (c) => c.notNull())
    .addColumn('image_ids', 'text', (c) => c.notNull())
    .addColumn('image_count', 'integer', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('processed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scored_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('healthy_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disease_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confidence_sum', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('processing_time_sum', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('tasks_status').on('tasks').columns(['status', 'id']).execute();

  await withIdColumn(db.schema.createTable('task_jobs'), pgMode)
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('image_ids', 'text', (c) => c.notNull())
    // queued -> running -> done; a running job of a dead process goes back to queued at start.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_jobs_status').on('task_jobs').columns(['status', 'id']).execute();
  // (task_id, status): the queue counts each task's started jobs when it picks the next one.
  await db.schema.createIndex('task_jobs_task').on('task_jobs').columns(['task_id', 'status']).execute();

  // image_id has no foreign key: a row with error_code image_deleted names an image that no longer exists.
  await withIdColumn(db.schema.createTable('results'), pgMode)
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('image_id', 'integer', (c) => c.notNull())
    .addColumn('image_name', 'text', (c) => c.notNull())
    .addColumn('image_name_lower', 'text', (c) => c.notNull())
    .addColumn('ppd_value', 'double precision')
    .addColumn('sub_ppd_values', 'text', (c) => c.notNull())
    .addColumn('prediction', 'text')
    .addColumn('confidence', 'double precision')
    .addColumn('oss_key', 'text')
    .addColumn('vis_keys', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('processing_time', 'double precision')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  const idx = (name: string, cols: string[], unique = false) => {
    const b = db.schema.createIndex(name).on('results').columns(cols);
    return (unique ? b.unique() : b).execute();
  };
  // One row per image and task: a retried job can never count an image twice.
  await idx('results_task_image', ['task_id', 'image_id'], true);
  await idx('results_task_id', ['task_id', 'id']);
  await idx('results_image', ['image_id', 'id']);
  await idx('results_task_ppd', ['task_id', 'ppd_value']);
  await idx('results_ppd', ['ppd_value']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('results').execute();
  await db.schema.dropTable('task_jobs').execute();
  await db.schema.dropTable('tasks').execute();
}
