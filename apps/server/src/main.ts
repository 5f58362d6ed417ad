import { buildApp } from './app.js';
import { loadConfigOrReport } from './config/config.js';
import { closeContext, createContext, startBackgroundWork } from './context.js';
import { createLogger } from './logger.js';
import { stopOnce, stopOnSignals } from './util/stop-once.js';

/** API server entry point: `node apps/server/dist/main.js` (what `npm start` runs). */
async function main(): Promise<void> {
  const config = loadConfigOrReport();
  if (!config) process.exit(2);
  const log = createLogger(config.logLevel);
  const ctx = await createContext(config, log, { deferBackgroundWork: true });
  let background: Promise<void> = Promise.resolve();
  const app = await buildApp(ctx);

  const shutdown = stopOnce(async (signal) => {
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    // app.close() stops accepting connections and waits for in-flight requests (uploads finish or
    // roll back through their own cleanup), then the context (queue, engine, database) closes.
    await app.close();
    // A stop must not overtake a start still in progress (the queue would start after it).
    await background.catch(() => {});
    await closeContext(ctx);
  });
  stopOnSignals(shutdown);

  await app.listen({ port: config.port, host: config.host });
  background = startBackgroundWork(ctx);
  log.info(
    {
      url: `http://${config.host}:${config.port}`,
      dataDir: config.dataDir,
      database: ctx.db.dialect,
      storage: ctx.storage.kind,
    },
    'CassavaScope is listening',
  );
  await background;
}

main().catch((err) => {
  process.stderr.write(`CassavaScope failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
