import crypto from 'node:crypto';
import os from 'node:os';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { openDatabase } from '../../src/db/database.js';
import { migrationProvider } from '../../src/db/migrations/index.js';

/**
 * Extra environment for a test server when the suite runs against the scale-out parts (PostgreSQL, S3,
 * pg-boss workers): set by scripts/run-tests.mjs in its second run of the server suite, from
 * scripts/scale-out/services.mjs. Each call gets its own fresh database and bucket, so test servers stay
 * as isolated as their SQLite temp dirs. Empty on the embedded default.
 *
 *   TEST_DATABASE_URL   a PostgreSQL server URL (its database is used only to CREATE DATABASE)
 *   TEST_S3_ENDPOINT    an S3-compatible endpoint (s3rver in tests); TEST_S3_ACCESS_KEY_ID / _SECRET_ACCESS_KEY
 *   TEST_WORKER_PROCESSES  pg-boss worker processes each test server spawns (default 1; 0 = the API works jobs).
 *                          One is enough for every job to run outside the API process; a second per server cost
 *                          each task test about 1.7 s of CPU to start and tested nothing more: the files about
 *                          several processes (scale-out-workers: two workers share a task, one is killed, a cancel
 *                          across processes; blob-race: two API servers) start their own.
 */
export async function scaleOutEnvForTest(options: { emptyDatabase?: boolean } = {}): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  if (process.env.TEST_DATABASE_URL) {
    // Migrated (a copy of the template), as a server leaves it at its first start; empty where a test needs a
    // database nothing has touched (a restore refuses any other).
    const template = options.emptyDatabase ? undefined : await migratedTemplate(process.env.TEST_DATABASE_URL);
    env.DATABASE_URL = await createTestDatabase(process.env.TEST_DATABASE_URL, { template });
    const workers = process.env.TEST_WORKER_PROCESSES ?? '1';
    env.WORKER_PROCESSES = workers;
    if (workers === '0') env.API_WORKS_JOBS = '1';
  }
  if (process.env.TEST_S3_ENDPOINT) Object.assign(env, await createTestBucket(process.env.TEST_S3_ENDPOINT));
  return env;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${process.pid}_${crypto.randomBytes(5).toString('hex')}`;
}

/**
 * CREATE DATABASE on the server of `serverUrl`, empty or as a copy of `template`; returns the new database's URL.
 */
export async function createTestDatabase(
  serverUrl: string,
  options: { template?: string | undefined } = {},
): Promise<string> {
  const name = uniqueName('t_');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`);
  } finally {
    await client.end();
  }
  return databaseUrl(serverUrl, name);
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/**
 * The name of a database with the app's schema and pg-boss' schema in place, made once per PostgreSQL server and
 * schema: a test server's database is a copy of it (CREATE DATABASE ... TEMPLATE, a file copy), so the scale-out
 * pass does not run every migration and pg-boss' install again for each of its few hundred test servers. Its name
 * carries a hash of the migrations' names and pg-boss' schema, so a new migration makes a new template on a
 * long-lived test server. Test files run in parallel processes: an advisory lock lets one make it, and it is made
 * under a temporary name and renamed when complete, so no copy is ever taken of a half-made template.
 */
export function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= makeTemplate(serverUrl);
  return template;
}

async function makeTemplate(serverUrl: string): Promise<string> {
  const migrations = Object.keys(await migrationProvider.getMigrations()).join(',');
  const hash = crypto.createHash('sha256').update(`${migrations}\n${PgBoss.getConstructionPlans('pgboss')}`);
  const name = `template_${hash.digest('hex').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['cassavascope test template']);
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = uniqueName('building_');
      await client.query(`CREATE DATABASE ${building}`);
      const url = databaseUrl(serverUrl, building);
      const db = await openDatabase({ dataDir: os.tmpdir(), databaseUrl: url });
      await db.close();
      const boss = new PgBoss({ connectionString: url, max: 1, supervise: false, schedule: false });
      await boss.start();
      await boss.stop({ graceful: false, wait: true });
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await client.end();
  }
}

export function testS3Credentials() {
  return {
    accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? 'S3RVER',
    secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? 'S3RVER',
  };
}

/** Creates a fresh bucket; returns the S3_* env that points a server at it. */
export async function createTestBucket(endpoint: string): Promise<Record<string, string>> {
  const bucket = uniqueName('t-').replace(/_/g, '-');
  const credentials = testS3Credentials();
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return {
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
  };
}
