import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';
import { SqliteReaders } from './sqlite-readers.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** SQLite only: reader threads for heavy reads (see SqliteReaders) */
  readers?: SqliteReaders;
  close(): Promise<void>;
}

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
}

/**
 * Opens the database (SQLite file in DATA_DIR by default, PostgreSQL when DATABASE_URL is set)
 * and brings its schema up to date.
 */
export async function openDatabase(options: DbOptions): Promise<Db> {
  const db = options.databaseUrl ? await openPostgres(options.databaseUrl) : openSqlite(options.dataDir);
  await migrateToLatest(db.kysely);
  return db;
}

function openSqlite(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'cassavascope.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -65536');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingTheFirstError(sqlite) }) });
  const readers = new SqliteReaders(file);
  const close = async () => {
    await readers.close();
    await kysely.destroy();
  };
  return { kysely, dialect: 'sqlite', readers, close };
}

/** A statement that does nothing: the ROLLBACK of a transaction SQLite has already rolled back. */
const NO_OP_STATEMENT = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  *iterate() {},
};

/**
 * On some errors (SQLITE_FULL, a full disk) SQLite rolls the transaction back itself; Kysely then sends its
 * own ROLLBACK, which fails with "cannot rollback - no transaction is active" and hides the real error (the
 * client got a 500 instead of 507 storage_full). That ROLLBACK becomes a no-op, so the first error surfaces.
 */
function keepingTheFirstError(sqlite: SQLite.Database) {
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) =>
      /^\s*rollback\s*$/i.test(sql) && !sqlite.inTransaction ? NO_OP_STATEMENT : sqlite.prepare(sql),
  };
}

async function openPostgres(url: string): Promise<Db> {
  // Loaded lazily so the embedded default never needs the pg driver at start.
  const { openPostgresKysely } = await import('./postgres.js');
  const kysely = await openPostgresKysely(url);
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
}

async function migrateToLatest(kysely: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db: kysely, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
