import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../config/config.js';
import { pgDump } from '../db/pg-dump.js';
import { backupSqlite } from '../db/sqlite-backup.js';
import { copyStorageToDir, type CopyReport } from '../storage/blob-copy.js';
import { createStorage } from '../storage/create-storage.js';

/** The files of a backup folder. With SQLite it is itself a DATA_DIR (the database file and `blobs/`). */
export const BACKUP_MANIFEST = 'backup.json';
export const BACKUP_SQLITE = 'cassavascope.db';
export const BACKUP_PG_DUMP = 'cassavascope.dump';
export const BACKUP_BLOBS = 'blobs';

export interface BackupManifest {
  format: 'cassavascope-backup';
  version: 1;
  /** when the database was copied (the state the backup restores) */
  database_at: string;
  finished_at: string;
  database: 'sqlite' | 'postgres';
  storage: 'local' | 's3';
  /** files in `blobs/` written by this run, their bytes, and those already there */
  files: number;
  bytes: number;
  skipped: number;
}

/**
 * Backs up a running installation into `target` (issue 26, point 6): the stored files, then the database, then
 * the files stored meanwhile. SQLite: the online backup API into `cassavascope.db`; PostgreSQL: `pg_dump
 * --format=custom` into `cassavascope.dump` (the app's tables and the pg-boss queue). Files (local or the
 * bucket's objects) go to `blobs/<key>`. Files first and a second pass after the database: every file a copied
 * row names was stored before the copy, so it is in the first pass or the second, unless deleted meanwhile
 * (then by a delete a moment after the copy, in the second pass's short window). A folder that holds an earlier
 * backup is brought up to date (files already there are kept); any other non-empty folder is refused.
 */
export async function backup(config: AppConfig, target: string, log: (line: string) => void): Promise<BackupManifest> {
  const own = path.resolve(config.dataDir, 'blobs');
  if ((path.resolve(target) + path.sep).startsWith(own + path.sep)) {
    throw new Error(`${target} is inside the stored files (${own}): back up somewhere else`);
  }
  await fsp.mkdir(target, { recursive: true });
  const entries = await fsp.readdir(target);
  if (entries.length > 0 && !entries.includes(BACKUP_MANIFEST)) {
    throw new Error(`${target} is not empty and holds no earlier backup: back up into a new folder`);
  }
  const storage = await createStorage(config);
  try {
    const blobs = path.join(target, BACKUP_BLOBS);
    const seen = new Set<string>();
    const progress = (r: CopyReport) => log(`files: ${r.copied} copied (${r.bytes} bytes), ${r.skipped} already there`);
    const first = await copyStorageToDir(storage, blobs, seen, progress);
    const databaseAt = new Date().toISOString();
    if (config.databaseUrl) {
      await pgDump(config.databaseUrl, path.join(target, BACKUP_PG_DUMP));
      await fsp.rm(path.join(target, BACKUP_SQLITE), { force: true });
    } else {
      await backupSqlite(config.dataDir, path.join(target, BACKUP_SQLITE));
      await fsp.rm(path.join(target, BACKUP_PG_DUMP), { force: true });
    }
    log(`database: ${config.databaseUrl ? 'pg_dump' : 'SQLite online backup'} done`);
    const second = await copyStorageToDir(storage, blobs, seen, progress);
    const manifest: BackupManifest = {
      format: 'cassavascope-backup',
      version: 1,
      database_at: databaseAt,
      finished_at: new Date().toISOString(),
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      storage: storage.kind,
      files: first.copied + second.copied,
      bytes: first.bytes + second.bytes,
      skipped: first.skipped + second.skipped,
    };
    fs.writeFileSync(path.join(target, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    (storage as { close?: () => void }).close?.();
  }
}

export function readManifest(dir: string): BackupManifest {
  const file = path.join(dir, BACKUP_MANIFEST);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  } catch (err) {
    throw new Error(`${file} cannot be read: not a finished backup (${(err as Error).message})`, { cause: err });
  }
  if (manifest.format !== 'cassavascope-backup' || manifest.version !== 1) {
    throw new Error(`${file} is not a CassavaScope backup this version can restore`);
  }
  return manifest;
}
