import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// int8 (COUNT(*), bigint sizes) arrives as a string by default; every value we store fits a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric -> number as well (AVG over integers returns numeric).
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * Sessions the server ends (a restart, a failover: 57P01) reach the pool as an 'error' on an idle client; the
 * pool then drops that client and opens a new one for the next query. Without a listener Node would treat
 * the event as fatal and exit (issue 26, point 3): it is only logged.
 */
export function onLostConnection(err: Error): void {
  process.stderr.write(
    `${JSON.stringify({ level: 40, msg: 'a database connection was closed by the server', err: err.message })}\n`,
  );
}

export async function openPostgresKysely(url: string): Promise<Kysely<Database>> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', onLostConnection);
  // The pool listens only to idle clients. A checked-out client can meet the end of its session between its
  // query's failure (57P01) and its release: the socket's end arrives in the same tick, before the caller's
  // release, as an 'error' on the client with no listener, and the process exited (the chaos check's
  // PostgreSQL restart under /status/ polling, 3 runs in 4). The client is dropped at its release.
  pool.on('connect', (client) => client.on('error', onLostConnection));
  // Fail at start with a clear message rather than at the first request.
  const client = await pool.connect();
  client.release();
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
