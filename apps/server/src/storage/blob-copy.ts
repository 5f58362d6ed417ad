import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { forEachLimit } from '../util/limiter.js';
import { contentTypeForKey, isValidKey, type BlobStorage } from './blob-storage.js';

/** Files copied at once (a disk or an object store keeps a few requests busy). */
const CONCURRENCY = 4;
/** Keys taken from a listing at once. */
const BATCH = 200;

export interface CopyReport {
  /** files written */
  copied: number;
  /** bytes written */
  bytes: number;
  /** files already there (a backup folder used again), or keys seen by an earlier pass */
  skipped: number;
}

/** The file of `key` under `dir` (the same layout as DATA_DIR/blobs). */
export function fileOfKey(dir: string, key: string): string {
  return path.join(dir, ...key.split('/'));
}

/**
 * Copies every stored object (local files or a bucket) to `dir/<key>`, streamed (never a whole file in memory),
 * each written beside its place and renamed in. Keys in `seen` are skipped and every key listed is added to it
 * (a second pass copies only what is new); a file already in `dir` with the object's size is kept (keys name
 * immutable bytes: originals and thumbnails by their hash, labels and models by a new key per version).
 */
export async function copyStorageToDir(
  storage: BlobStorage,
  dir: string,
  seen: Set<string>,
  onProgress?: (report: CopyReport) => void,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, bytes: 0, skipped: 0 };
  const copyOne = async (key: string) => {
    const obj = await storage.get(key);
    // Gone since the listing (a delete), or a name this server never writes: nothing to copy.
    if (!obj) return;
    const target = fileOfKey(dir, key);
    const existing = await fsp.stat(target).catch(() => undefined);
    if (existing?.isFile() && existing.size === obj.size) {
      obj.stream.destroy();
      report.skipped++;
      return;
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const part = `${target}.${crypto.randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(obj.stream, fs.createWriteStream(part));
      await fsp.rename(part, target);
    } finally {
      await fsp.rm(part, { force: true });
    }
    report.copied++;
    report.bytes += (await fsp.stat(target)).size;
  };
  let batch: string[] = [];
  const flush = async () => {
    await forEachLimit(batch, CONCURRENCY, copyOne);
    batch = [];
    onProgress?.(report);
  };
  for await (const key of storage.list('')) {
    if (seen.has(key)) continue;
    seen.add(key);
    if (!isValidKey(key)) continue;
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return report;
}

/**
 * Puts every file under `dir` (a backup's `blobs/`) into storage under its relative path as key. With
 * `skipExisting`, keys the storage already holds are left (a restore run again after an interruption).
 */
export async function copyDirToStorage(
  dir: string,
  storage: BlobStorage,
  skipExisting: boolean,
  onProgress?: (report: CopyReport) => void,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, bytes: 0, skipped: 0 };
  await fsp.mkdir(storage.tempDir, { recursive: true });
  const copyOne = async (key: string) => {
    if (skipExisting && (await storage.exists(key))) {
      report.skipped++;
      return;
    }
    // putFile takes a temp file of its own (moved on the local store, uploaded in parts to S3): a copy of it.
    const temp = path.join(storage.tempDir, `${crypto.randomUUID()}.part`);
    await fsp.copyFile(fileOfKey(dir, key), temp);
    try {
      report.bytes += (await fsp.stat(temp)).size;
      await storage.putFile(key, temp, contentTypeForKey(key));
    } finally {
      await fsp.rm(temp, { force: true });
    }
    report.copied++;
  };
  let batch: string[] = [];
  const flush = async () => {
    await forEachLimit(batch, CONCURRENCY, copyOne);
    batch = [];
    onProgress?.(report);
  };
  for await (const key of filesUnder(dir, '')) {
    if (key.endsWith('.part')) continue;
    if (!isValidKey(key)) throw new Error(`not a stored file's name: ${key} (in ${dir})`);
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return report;
}

async function* filesUnder(root: string, rel: string): AsyncIterable<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return;
    throw err;
  }
  for (const e of entries) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) yield* filesUnder(root, child);
    else if (e.isFile()) yield child;
  }
}
