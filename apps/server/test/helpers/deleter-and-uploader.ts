import { workerEnv } from '../../src/queue/pg-boss-worker-processes.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * The two sides of the blob race (issue 26, point 1): `server` deletes, `uploader` uploads. On PostgreSQL + S3 the
 * uploader is a second API server on the same database and bucket (its own blob guard and database sessions, as
 * another process has), so the guard must hold across processes; on the embedded default it is the one server.
 * Orphans are swept at once (ORPHAN_GRACE_MINUTES=0), so a blob left without a row would be seen gone.
 */
export async function startDeleterAndUploader(): Promise<{
  server: TestServer;
  uploader: TestServer;
  close(): Promise<void>;
}> {
  const server = await startTestServer({ ORPHAN_GRACE_MINUTES: '0' });
  let uploader = server;
  if (server.ctx.config.databaseUrl) {
    const { DATA_DIR: _shared, ...shared } = workerEnv(server.ctx.config);
    try {
      uploader = await startTestServer({ ...shared, ORPHAN_GRACE_MINUTES: '0', WORKER_PROCESSES: '0' });
    } catch (err) {
      await server.close();
      throw err;
    }
  }
  return {
    server,
    uploader,
    async close() {
      if (uploader !== server) await uploader.close();
      await server.close();
    },
  };
}
