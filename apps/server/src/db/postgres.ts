import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// int8 (COUNT(*), bigint sizes) arrives as a string by default; every value we store fits a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric -> number as well (AVG over integers returns numeric).
pg.types.setTypeParser(1700, (v) => Number(v));

export async function openPostgresKysely(url: string): Promise<Kysely<Database>> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Fail at start with a clear message rather than at the first request.
  const client = await pool.connect();
  client.release();
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
