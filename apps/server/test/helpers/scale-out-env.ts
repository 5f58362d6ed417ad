import crypto from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';

/**
 * Extra environment for a test server when the suite runs against the scale-out parts (PostgreSQL, S3,
 * pg-boss workers): set by scripts/run-tests.mjs in its second run of the server suite, from
 * scripts/scale-out/services.mjs. Each call gets its own fresh database and bucket, so test servers stay
 * as isolated as their SQLite temp dirs. Empty on the embedded default.
 *
 *   TEST_DATABASE_URL   a PostgreSQL server URL (its database is used only to CREATE DATABASE)
 *   TEST_S3_ENDPOINT    an S3-compatible endpoint (s3rver in tests); TEST_S3_ACCESS_KEY_ID / _SECRET_ACCESS_KEY
 *   TEST_WORKER_PROCESSES  pg-boss worker processes each test server spawns (default 2; 0 = the API works jobs)
 */
export async function scaleOutEnvForTest(): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  if (process.env.TEST_DATABASE_URL) {
    env.DATABASE_URL = await createTestDatabase(process.env.TEST_DATABASE_URL);
    const workers = process.env.TEST_WORKER_PROCESSES ?? '2';
    env.WORKER_PROCESSES = workers;
    if (workers === '0') env.API_WORKS_JOBS = '1';
  }
  if (process.env.TEST_S3_ENDPOINT) Object.assign(env, await createTestBucket(process.env.TEST_S3_ENDPOINT));
  return env;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${process.pid}_${crypto.randomBytes(5).toString('hex')}`;
}

/** CREATE DATABASE on the server of `serverUrl`; returns the new database's URL. */
export async function createTestDatabase(serverUrl: string): Promise<string> {
  const name = uniqueName('t_');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
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
