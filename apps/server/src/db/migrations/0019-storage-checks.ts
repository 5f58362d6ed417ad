import type { Kysely } from 'kysely';

/**
 * The storage check (issue 26, point 6: stored bytes were never checked): reads every stored file against its
 * row (storage-check/). One row, `id` 1, no row before the first check. It holds two things:
 * - the run in progress or last started: `running` (0/1), `started_at`, `heartbeat_at` (moved while it runs: a
 *   claim whose heartbeat is a few minutes old is a dead process's), `run_trigger`. A process claims the row
 *   before it checks (one statement), so of several API processes on one PostgreSQL database one runs it.
 * - the last finished check, kept while the next one runs: `finished_at`, `trigger` (schedule, manual,
 *   command), what it read (`files`, `bytes`), what it found (`missing`, `corrupt`, `untracked`), `problems`
 *   (JSON text, a capped list of `{kind, key, detail}`) and `error_message` when it could not finish.
 * A plain integer key (not an identity): the SQLite -> PostgreSQL copy keeps it as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_checks')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_trigger', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('trigger', 'text')
    .addColumn('files', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('missing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('corrupt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('untracked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('problems', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('error_message', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_checks').execute();
}
