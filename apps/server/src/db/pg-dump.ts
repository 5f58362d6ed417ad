import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * PostgreSQL's own tools for backups: `pg_dump` (custom format) and `pg_restore`, from PATH or from PG_BIN (a
 * folder, e.g. /usr/lib/postgresql/15/bin; their major version must be at least the server's). The password of
 * DATABASE_URL goes to them in PGPASSWORD, not on their command line (where `ps` would show it).
 */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  return process.env.PG_BIN ? path.join(process.env.PG_BIN, name) : name;
}

function connection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on('error', (err) =>
      reject(
        new Error(`${path.basename(tool)} could not start (${err.message}): install PostgreSQL's client or set PG_BIN`),
      ),
    );
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(tool)} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}

/** `pg_dump --format=custom` of the whole database (app tables and the pg-boss queue) to `target`, renamed into place. */
export async function pgDump(databaseUrl: string, target: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  const part = `${target}.part`;
  try {
    await run(pgTool('pg_dump'), ['--format=custom', `--file=${part}`, `--dbname=${url}`], env);
    await fsp.rename(part, target);
  } finally {
    await fsp.rm(part, { force: true });
  }
}

/** `pg_restore` of a dump into the (empty) database, in one transaction: all of it or nothing. */
export async function pgRestore(databaseUrl: string, dump: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  await run(
    pgTool('pg_restore'),
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, dump],
    env,
  );
}

/**
 * Tables in the database outside PostgreSQL's own schemas (a restore goes only into a database without any).
 * A plain connection: opening it the server's way would create the schema first.
 */
export async function postgresTables(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ name: string }>(
      `select table_schema || '.' || table_name as name from information_schema.tables
       where table_schema not in ('pg_catalog', 'information_schema') order by 1`,
    );
    return res.rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}
