import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestServer } from './test-server.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  await walk(dir);
  return out.sort();
}

/** What a test server holds on disk and in its database: to check that a bad request left nothing behind. */
export async function storedState(server: TestServer): Promise<{ images: number; blobs: string[]; tmp: string[] }> {
  const row = await server.ctx.db.kysely
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    images: Number(row.n),
    // Through the storage interface, so the check also holds on S3 (the scale-out run).
    blobs: await storedKeys(server),
    tmp: await filesUnder(path.join(server.dataDir, 'tmp')),
  };
}

/** Every key the server's blob storage holds (local files or an S3 bucket). */
export async function storedKeys(server: TestServer): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of server.ctx.storage.list('')) keys.push(key);
  return keys.sort();
}
