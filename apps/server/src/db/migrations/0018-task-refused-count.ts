import { sql, type Kysely } from 'kysely';

/**
 * `tasks.refused_count`: how many of the task's images the engine refused (`not_a_specimen_photo`,
 * `no_specimen_found`; api.md, Tasks). A refusal is an outcome, not a failure: the counter lets the task end
 * `completed` when its photos were all refused, and the task list read it without counting results. Kept in
 * step by the task state with the other counters; existing tasks are counted from their results here, and an
 * already finished task whose every image was refused becomes `completed`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('refused_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update tasks set refused_count = (select count(*) from results where results.task_id = tasks.id
    and results.error_code in ('not_a_specimen_photo', 'no_specimen_found'))`.execute(db);
  await sql`update tasks set status = 'completed', error_message = null
    where status = 'failed' and refused_count > 0 and failed_count >= image_count`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('refused_count').execute();
}
