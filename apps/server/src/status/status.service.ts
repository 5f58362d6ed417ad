import fs from 'node:fs';
import type { ServerStatus } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { engineInfo } from '../engine/app-engine.js';
import { ApiError } from '../http/errors.js';
import { ImagesRepository } from '../images/images.repository.js';
import { lastStorageCheck } from '../storage-check/storage-check.service.js';
import { TasksRepository } from '../tasks/tasks.repository.js';

/** The endpoint prefixes the connection screen lists, each checked with a real request. */
export const CHECKED_ENDPOINTS = [
  '/api/images/',
  '/api/folders/',
  '/api/predictions/',
  '/api/tasks/',
  '/api/status/',
] as const;

const VERSION = (
  JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * The database did not answer (a restart, an outage): the status says so with 503 `database_unavailable`
 * rather than a bare 500; the server carries on and answers normally once the database is back.
 */
function databaseDown(err: unknown): never {
  throw new ApiError(503, 'database_unavailable', `The database is not answering: ${errorMessage(err)}`);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What GET /status/ reports: real counts, the engine, the backends and a live check of each endpoint. */
/** `cookie`: the caller's, so a signed-in caller's checks run the whole route (sign-in on). */
export async function serverStatus(app: FastifyInstance, ctx: AppContext, cookie?: string): Promise<ServerStatus> {
  const [imageCount, taskCount, endpoints, engine, disk, storageCheck] = await Promise.all([
    new ImagesRepository(ctx.db.kysely).count({}).catch(databaseDown),
    new TasksRepository(ctx.db.kysely).countAll().catch(databaseDown),
    checkEndpoints(app, cookie),
    engineInfo(ctx.engine),
    ctx.space.status().catch(() => null),
    lastStorageCheck(ctx.db).catch(() => null),
  ]);
  return {
    status: 'online',
    version: VERSION,
    uptime_seconds: Math.floor((Date.now() - ctx.startedAt.getTime()) / 1000),
    server_time: new Date().toISOString(),
    image_count: imageCount,
    task_count: taskCount,
    engine: { name: engine.name, label: engine.label, kind: engine.kind },
    database: ctx.db.dialect,
    storage: ctx.storage.kind,
    queue: ctx.queue.kind,
    endpoints,
    // Free space on DATA_DIR (the database, blobs and temp files of the embedded default; temp files only
    // with PostgreSQL + S3): the Connection screen shows it and warns when `low`.
    disk,
    // The last check of every stored file against its row (issue 26): the Connection screen shows it.
    storage_check: storageCheck,
  };
}

/**
 * Each list endpoint answers a one-item page in-process; the status endpoint is the one answering now. With
 * sign-in on, the check carries the caller's session; without one, 401 `not_signed_in` also counts as
 * answering (the endpoint is up and asks for a session).
 */
async function checkEndpoints(
  app: FastifyInstance,
  cookie: string | undefined,
): Promise<{ path: string; ok: boolean }[]> {
  return Promise.all(
    CHECKED_ENDPOINTS.map(async (path) => {
      if (path === '/api/status/') return { path, ok: true };
      try {
        const res = await app.inject({ method: 'GET', url: `${path}?page_size=1`, headers: cookie ? { cookie } : {} });
        return {
          path,
          ok:
            res.statusCode === 200 ||
            (res.statusCode === 401 && res.json<{ code?: string }>().code === 'not_signed_in'),
        };
      } catch {
        return { path, ok: false };
      }
    }),
  );
}
