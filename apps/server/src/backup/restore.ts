import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../config/config.js';
import { pgRestore, postgresTables } from '../db/pg-dump.js';
import { sqliteFileOf } from '../db/sqlite-backup.js';
import { copyDirToStorage, type CopyReport } from '../storage/blob-copy.js';
import { createStorage } from '../storage/create-storage.js';
import { BACKUP_BLOBS, BACKUP_PG_DUMP, BACKUP_SQLITE, readManifest, type BackupManifest } from './backup.js';

export interface RestoreReport {
  database: 'sqlite' | 'postgres';
  /** the time of the state restored */
  database_at: string;
  files: number;
  bytes: number;
  skipped: number;
}

/**
 * Restores a backup (backup.ts) into the installation `config` names, which must be empty: SQLite, a DATA_DIR
 * without a database (the file is copied in); PostgreSQL, a database without tables (`pg_restore`, one
 * transaction). Then every file of the backup goes into the storage (DATA_DIR/blobs or the bucket).
 * `resumeFiles` skips the database (restored by an interrupted run) and copies only files not stored yet.
 * A backup of the other database kind is refused: an SQLite backup folder is a DATA_DIR, so the migration
 * command (`migrate-command.js --from <folder>`) takes it to PostgreSQL + S3.
 */
export async function restore(
  config: AppConfig,
  from: string,
  resumeFiles: boolean,
  log: (line: string) => void,
): Promise<RestoreReport> {
  const manifest: BackupManifest = readManifest(from);
  const wanted = config.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.database !== wanted) {
    throw new Error(
      manifest.database === 'sqlite'
        ? `${from} is a backup of the embedded SQLite database and DATABASE_URL is set: restore it without DATABASE_URL, or move it to PostgreSQL with the migration command (--from ${from})`
        : `${from} is a PostgreSQL backup: set DATABASE_URL to an empty database to restore it`,
    );
  }
  if (!resumeFiles) {
    if (config.databaseUrl) {
      const tables = await postgresTables(config.databaseUrl);
      if (tables.length > 0)
        throw new Error(`the database is not empty (${tables.slice(0, 3).join(', ')}...): restore into a new one`);
      await pgRestore(config.databaseUrl, path.join(from, BACKUP_PG_DUMP));
    } else {
      const target = sqliteFileOf(config.dataDir);
      if (fs.existsSync(target)) throw new Error(`${target} exists: restore into an empty DATA_DIR`);
      await fsp.mkdir(config.dataDir, { recursive: true });
      await fsp.copyFile(path.join(from, BACKUP_SQLITE), `${target}.part`);
      await fsp.rename(`${target}.part`, target);
    }
    log(`database: restored to its state of ${manifest.database_at}`);
  }
  const storage = await createStorage(config);
  try {
    const progress = (r: CopyReport) =>
      log(`files: ${r.copied} restored (${r.bytes} bytes), ${r.skipped} already there`);
    const files = await copyDirToStorage(path.join(from, BACKUP_BLOBS), storage, resumeFiles, progress);
    return {
      database: manifest.database,
      database_at: manifest.database_at,
      files: files.copied,
      bytes: files.bytes,
      skipped: files.skipped,
    };
  } finally {
    (storage as { close?: () => void }).close?.();
  }
}
