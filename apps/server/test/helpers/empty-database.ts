import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { openPostgresKysely } from '../../src/db/postgres.js';
import { createTestDatabase } from './scale-out-env.js';

/**
 * A database of this run's kind (a SQLite file, or a fresh PostgreSQL database in the scale-out pass) with no
 * migration applied, for the tests of one migration over rows stored before it. `drop` closes and removes it.
 */
export async function emptyDatabase(): Promise<{ db: Kysely<any>; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const db = await openPostgresKysely(await createTestDatabase(process.env.TEST_DATABASE_URL));
    return { db: db as Kysely<any>, drop: () => db.destroy() };
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-migration-'));
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'db.sqlite')) }) });
  return {
    db,
    drop: async () => {
      await db.destroy();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
