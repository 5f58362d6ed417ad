import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { closeContext, createContext, startBackgroundWork } from './context.js';
import { createLogger } from './logger.js';

/** API server entry point: `node apps/server/dist/main.js` (what `npm start` runs). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const ctx = await createContext(config, log, { deferBackgroundWork: true });
  let background: Promise<void> = Promise.resolve();
  const app = await buildApp(ctx);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    // app.close() stops accepting connections and waits for in-flight requests (uploads finish or
    // roll back through their own cleanup), then the context (queue, engine, database) closes.
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await app.close();
      // A stop must not overtake a start still in progress (the queue would start after it).
      await background.catch(() => {});
      await closeContext(ctx);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

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
