import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { openDatabase, type Db } from './db/database.js';
import type { BlobStorage } from './storage/blob-storage.js';
import { createStorage } from './storage/create-storage.js';

/**
 * Everything a route or job handler needs, built once at start and passed explicitly
 * (no DI container). Later features add their services here.
 */
export interface AppContext {
  config: AppConfig;
  db: Db;
  storage: BlobStorage;
  log: Logger;
  startedAt: Date;
}

export async function createContext(config: AppConfig, log: Logger): Promise<AppContext> {
  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = await createStorage(config);
  return { config, db, storage, log, startedAt: new Date() };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.db.close();
}
