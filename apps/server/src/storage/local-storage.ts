import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { processTempDir } from './temp-sweep.js';
import { contentTypeForKey, isValidKey, type BlobStorage } from './blob-storage.js';

/** Blobs as files under DATA_DIR/blobs; temp files under DATA_DIR/tmp/<host>.<pid> (same filesystem: rename is atomic). */
export class LocalStorage implements BlobStorage {
  readonly kind = 'local' as const;
  readonly tempDir: string;
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
    fs.mkdirSync(this.root, { recursive: true });
    this.tempDir = processTempDir(dataDir);
  }

  private pathFor(key: string): string {
    if (!isValidKey(key)) throw new Error(`invalid storage key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async putFile(key: string, tempFilePath: string): Promise<void> {
    const target = this.pathFor(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tempFilePath, target);
  }

  async putBuffer(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathFor(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(this.tempDir, `${crypto.randomUUID()}.part`);
    try {
      await fsp.writeFile(temp, bytes);
      await fsp.rename(temp, target);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string) {
    if (!isValidKey(key)) return null;
    const file = this.pathFor(key);
    try {
      const stat = await fsp.stat(file);
      if (!stat.isFile()) return null;
      return { stream: fs.createReadStream(file), size: stat.size, contentType: contentTypeForKey(key) };
    } catch {
      return null;
    }
  }

  async getRange(key: string, start: number, end: number) {
    if (!isValidKey(key)) return null;
    try {
      const handle = await fsp.open(this.pathFor(key), 'r');
      return handle.createReadStream({ start, end });
    } catch {
      return null;
    }
  }

  async getBuffer(key: string): Promise<Buffer | null> {
    if (!isValidKey(key)) return null;
    try {
      return await fsp.readFile(this.pathFor(key));
    } catch {
      return null;
    }
  }

  async exists(key: string): Promise<boolean> {
    if (!isValidKey(key)) return false;
    try {
      return (await fsp.stat(this.pathFor(key))).isFile();
    } catch {
      return false;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.filter(isValidKey).map((k) => fsp.rm(this.pathFor(k), { force: true })));
  }

  async deletePrefix(prefix: string): Promise<void> {
    // The folder goes too: a folder per kept upload would otherwise stay behind empty.
    await fsp.rm(this.pathFor(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    const start = path.join(this.root, ...prefix.split('/').filter(Boolean));
    const walk = async function* (dir: string, rel: string): AsyncIterable<string> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) yield* walk(path.join(dir, e.name), childRel);
        else if (e.isFile()) yield childRel;
      }
    };
    yield* walk(start, prefix.split('/').filter(Boolean).join('/'));
  }

  async *listWithTimes(prefix: string): AsyncIterable<{ key: string; modified: number | undefined }> {
    for await (const key of this.list(prefix)) {
      const stat = await fsp.stat(this.pathFor(key)).catch(() => undefined);
      if (stat) yield { key, modified: stat.mtimeMs };
    }
  }

  url(key: string): string {
    return `/media/${key}`;
  }
}
