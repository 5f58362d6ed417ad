import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The embedded database's file in a DATA_DIR (db/database.ts opens the same one). */
export function sqliteFileOf(dataDir: string): string {
  return path.join(dataDir, 'cassavascope.db');
}

/**
 * Copies the embedded database to `target` with SQLite's online backup (better-sqlite3's `.backup()`): a
 * consistent copy while the server keeps reading and writing (WAL), written beside `target` and renamed into
 * place, so `target` is either the old file or the whole new one.
 */
export async function backupSqlite(dataDir: string, target: string): Promise<void> {
  const source = sqliteFileOf(dataDir);
  if (!fs.existsSync(source)) throw new Error(`no embedded database at ${source}`);
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  const part = `${target}.part`;
  try {
    await fsp.rm(part, { force: true });
    await db.backup(part);
    await fsp.rename(part, target);
  } finally {
    db.close();
    await fsp.rm(part, { force: true });
  }
}
