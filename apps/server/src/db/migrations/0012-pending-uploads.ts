import type { Kysely } from 'kysely';

/**
 * Uploads refused with a 409 duplicate and kept for the user's choice (issue 15 item 11, docs/api.md
 * "Resumable duplicate choice"). In the database, not one process's memory, so whichever API process the
 * choice reaches can finish it: `files` is the JSON list of the request's files (uploads/pending-uploads.ts),
 * whose bytes wait in blob storage under `pending/<token>/`. Short-lived: `expires_at` (ISO UTC) is swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_uploads')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('folder_id', 'integer')
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_uploads_expires').on('pending_uploads').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pending_uploads').execute();
}
