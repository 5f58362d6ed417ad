import type { Kysely } from 'kysely';
import { isPostgres, withIdColumn } from './id-column.js';

/**
 * Sign-in (issue 14, api.md "Security and sign-in"): users with a role and a salted scrypt hash; sessions
 * (only the SHA-256 of the cookie's token is stored, so a copy of the database opens no session); failed
 * login attempts, kept in the database so every API process slows the same guesser down; an audit of
 * deletions (who deleted what); and who created each task.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pgMode = await isPostgres(db);
  await withIdColumn(db.schema.createTable('users'), pgMode)
    .addColumn('username', 'text', (c) => c.notNull())
    // lower-cased NFC name: the unique key, so "Ana" and "ana" are one account
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await withIdColumn(db.schema.createTable('login_failures'), pgMode)
    // `user:<name key>` or `addr:<client address>`
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_subject')
    .on('login_failures')
    .columns(['subject', 'created_at'])
    .execute();

  await withIdColumn(db.schema.createTable('audit_log'), pgMode)
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('tasks').addColumn('created_by', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('created_by').execute();
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('login_failures').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
