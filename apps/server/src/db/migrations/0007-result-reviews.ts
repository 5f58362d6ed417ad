import type { Kysely } from 'kysely';
import { isPostgres, withIdColumn } from './id-column.js';

/**
 * The history of review changes (api.md, `GET /predictions/{id}/history/`): one row per change of one
 * specimen, in the order the changes were committed (the id). `from_value` / `to_value` are JSON text
 * (a PPD, a boolean, or null). `user_id` names who made the change once sign-in exists; null until then.
 * Rows go with their result (cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pgMode = await isPostgres(db);
  await withIdColumn(db.schema.createTable('result_reviews'), pgMode)
    .addColumn('result_id', 'integer', (c) => c.notNull().references('results.id').onDelete('cascade'))
    .addColumn('specimen_index', 'integer', (c) => c.notNull())
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('from_value', 'text', (c) => c.notNull())
    .addColumn('to_value', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('result_reviews_result').on('result_reviews').columns(['result_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('result_reviews').execute();
}
