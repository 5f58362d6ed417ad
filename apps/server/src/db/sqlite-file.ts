import { sql } from 'kysely';
import type { Db } from './database.js';

/** The file of an SQLite database's main schema; undefined for an in-memory database (and for PostgreSQL). */
export async function sqliteMainFile(db: Db): Promise<string | undefined> {
  if (db.dialect !== 'sqlite') return undefined;
  const list = await sql<{ name: string; file: string }>`pragma database_list`.execute(db.kysely);
  return list.rows.find((r) => r.name === 'main')?.file || undefined;
}
