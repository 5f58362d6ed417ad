import os from 'node:os';
import path from 'node:path';
import { usernameSchema } from '@cassavascope/contract';
import { z } from 'zod';

/** Environment variables, validated once at start. Bad values stop the process with a clear message. */
const boolFromEnv = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for the embedded SQLite database)')
    .optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_FORCE_PATH_STYLE: boolFromEnv.default(true),
  OSS_BASE_URL: z.url().optional(),
  MODEL_PATH: z.string().min(1).optional(),
  WORKERS: z.coerce.number().int().min(1).max(256).default(Math.max(1, os.availableParallelism())),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1_000_000).default(4096),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Scale-out (pg-boss, only with DATABASE_URL): see docs/deployment.md.
  // Unset: the API works jobs unless it starts local worker processes, so a one-node PostgreSQL install
  // never leaves tasks waiting; a dedicated API node beside remote workers sets API_WORKS_JOBS=0.
  API_WORKS_JOBS: boolFromEnv.optional(),
  WORKER_PROCESSES: z.coerce.number().int().min(0).max(64).default(0),
  JOB_EXPIRE_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
  // Host names (or addresses) the server answers to, comma-separated; `*` answers any (only behind a proxy
  // that checks Host itself). Unset: the loopback names and HOST (see allowedHostsOf).
  ALLOWED_HOSTS: z
    .string()
    .regex(
      /^\s*(\*|[A-Za-z0-9.:[\]_-]+)(\s*,\s*[A-Za-z0-9.:[\]_-]+)*\s*$/,
      'must be a comma-separated list of host names (or *)',
    )
    .optional(),
  // An upload that sends no byte for this long is aborted and its temp files removed.
  UPLOAD_IDLE_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  // Stored files no row refers to are removed at start once older than this (unset: 0 with SQLite, where
  // one process owns the data; 15 with PostgreSQL, where another API process may be mid-upload).
  ORPHAN_GRACE_MINUTES: z.coerce.number().min(0).max(100_000).optional(),
  // The storage check (storage-check/): every stored file read against its row this often (0 = never on a
  // schedule; `npm run check-storage` and the admin's "check now" still work). Files younger than the grace are
  // not judged untracked (an upload may be between its file and its row).
  STORAGE_CHECK_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(24),
  STORAGE_CHECK_GRACE_MINUTES: z.coerce.number().min(0).max(100_000).default(60),
  // Kept free on DATA_DIR for deletes and starts on a full disk; the Connection screen warns below DISK_LOW_MB.
  DISK_RESERVE_MB: z.coerce.number().min(0).max(100_000).default(16),
  DISK_LOW_MB: z.coerce.number().min(0).max(100_000_000).default(1024),
  // Sign-in (api.md, "Security and sign-in"): unset = on unless HOST is a loopback address.
  AUTH: z.enum(['on', 'off']).optional(),
  // Trust X-Forwarded-Proto / X-Forwarded-For from the reverse proxy in front (Secure cookies, client address).
  TRUST_PROXY: boolFromEnv.default(false),
  SESSION_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(12),
  // The first admin, created at start when no user exists yet.
  ADMIN_USERNAME: usernameSchema.optional(),
  ADMIN_PASSWORD: z.string().min(10, 'at least 10 characters').optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  s3:
    | {
        endpoint: string | undefined;
        bucket: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        region: string;
        forcePathStyle: boolean;
      }
    | undefined;
  ossBaseUrl: string | undefined;
  modelPath: string | undefined;
  workers: number;
  maxUploadBytes: number;
  logLevel: Env['LOG_LEVEL'];
  /** lower-case host names the server answers to (no port); null = any (ALLOWED_HOSTS=*) */
  allowedHosts: ReadonlySet<string> | null;
  /** an upload idle this long (ms) is aborted */
  uploadIdleMs: number;
  /** unreferenced stored files younger than this (ms) are left alone by the orphan sweep */
  orphanGraceMs: number;
  /** the storage check: between scheduled checks (ms, 0 = none) and the age under which a file is not judged untracked */
  storageCheck: { intervalMs: number; graceMs: number };
  /** the space reserve on DATA_DIR, and the free space under which the status warns (bytes) */
  disk: { reserveBytes: number; lowBytes: number };
  /** sign-in settings (auth/) */
  auth: {
    /** every /api call but login and status needs a session with a role that allows it */
    enabled: boolean;
    /** believe X-Forwarded-Proto / X-Forwarded-For (only behind a reverse proxy that sets them) */
    trustProxy: boolean;
    /** a session ends this long after sign-in (ms) */
    sessionMs: number;
    /** the first admin, created at start when there is no user yet */
    firstAdmin: { username: string; password: string } | undefined;
  };
  /** pg-boss settings (used only with DATABASE_URL) */
  scaleOut: {
    /** the API process also works jobs (else only `npm run worker` processes do) */
    apiWorksJobs: boolean;
    /** worker processes the API process starts and stops itself (one-machine scale-out, tests) */
    workerProcesses: number;
    /** a job whose worker stopped sending heartbeats for this long is retried by another worker */
    jobExpireSeconds: number;
  };
}

export class ConfigError extends Error {}

/** Reads and validates configuration from an environment map (process.env by default). */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings mean "unset": shells and compose files often export VAR= .
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_USERNAME === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_USERNAME, ADMIN_PASSWORD: set both or neither');
  }
  if (e.S3_ENDPOINT !== undefined || e.S3_ACCESS_KEY_ID !== undefined) {
    if (e.S3_BUCKET === undefined)
      throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when S3_* is set');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    s3:
      e.S3_BUCKET === undefined
        ? undefined
        : {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            region: e.S3_REGION,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          },
    ossBaseUrl: e.OSS_BASE_URL?.replace(/\/+$/, ''),
    modelPath: e.MODEL_PATH,
    workers: e.WORKERS,
    maxUploadBytes: Math.floor(e.MAX_UPLOAD_MB * 1024 * 1024),
    logLevel: e.LOG_LEVEL,
    allowedHosts: allowedHostsOf(e.ALLOWED_HOSTS, e.HOST),
    uploadIdleMs: Math.round(e.UPLOAD_IDLE_SECONDS * 1000),
    disk: {
      reserveBytes: Math.round(e.DISK_RESERVE_MB * 1024 * 1024),
      lowBytes: Math.round(e.DISK_LOW_MB * 1024 * 1024),
    },
    storageCheck: {
      intervalMs: Math.round(e.STORAGE_CHECK_HOURS * 3_600_000),
      graceMs: Math.round(e.STORAGE_CHECK_GRACE_MINUTES * 60_000),
    },
    orphanGraceMs: Math.round((e.ORPHAN_GRACE_MINUTES ?? (e.DATABASE_URL ? 15 : 0)) * 60_000),
    auth: {
      enabled: e.AUTH === undefined ? !isLoopbackHost(e.HOST) : e.AUTH === 'on',
      trustProxy: e.TRUST_PROXY,
      sessionMs: Math.round(e.SESSION_HOURS * 3_600_000),
      firstAdmin:
        e.ADMIN_USERNAME && e.ADMIN_PASSWORD ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD } : undefined,
    },
    scaleOut: {
      apiWorksJobs: e.API_WORKS_JOBS ?? e.WORKER_PROCESSES === 0,
      workerProcesses: e.WORKER_PROCESSES,
      jobExpireSeconds: e.JOB_EXPIRE_SECONDS,
    },
  };
}

/**
 * The configuration for a command or process start: null after writing why it is invalid to stderr, for the
 * caller to end with status 2 (a process) or return 2 (a CLI command).
 */
export function loadConfigOrReport(env: Record<string, string | undefined> = process.env): AppConfig | null {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return null;
  }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);

/** True for an address only this machine can reach (127.0.0.0/8, ::1, localhost): sign-in is off there by default. */
export function isLoopbackHost(host: string): boolean {
  const name = normaliseHostName(host);
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** A host name as it is compared: lower case, IPv6 without brackets. */
export function normaliseHostName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
}

/**
 * The Host names the server answers to (api.md, "Security"): ALLOWED_HOSTS when set, else the loopback
 * names and HOST. With HOST a wildcard (0.0.0.0, ::) the machine's own addresses and name are added: a page
 * can only be served from those by someone who already controls this machine, while a DNS-rebinding page
 * always arrives under its own (foreign) name.
 */
export function allowedHostsOf(list: string | undefined, host: string): ReadonlySet<string> | null {
  if (list !== undefined) {
    const names = list.split(',').map(normaliseHostName).filter(Boolean);
    return names.includes('*') ? null : new Set(names);
  }
  const names = new Set([...LOOPBACK_NAMES, normaliseHostName(host)]);
  if (WILDCARD_ADDRESSES.has(host.trim())) {
    names.add(os.hostname().toLowerCase());
    for (const addresses of Object.values(os.networkInterfaces())) {
      for (const a of addresses ?? []) names.add(normaliseHostName(a.address));
    }
  }
  return names;
}
