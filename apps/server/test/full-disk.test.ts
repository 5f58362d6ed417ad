import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeContext } from '../src/context.js';
import { storedState } from './helpers/data-dir.js';
import { formWith, makeJpeg } from './helpers/fixtures.js';
import { scaleOutEnvForTest } from './helpers/scale-out-env.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 13, point 2, on a real full file system: DATA_DIR on a 32 MB tmpfs (root only; skipped where mount is
 * not allowed). On the embedded default it holds the database, blobs and temp files; in the scale-out pass the
 * temp files (uploads are staged there) while PostgreSQL and S3 live elsewhere.
 */
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-full-disk-'));
const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mountPoint]).status === 0;
const filler = path.join(mountPoint, 'filler.bin');

afterAll(() => {
  if (mounted) spawnSync('umount', ['-l', mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system to the last byte (what is left is less than one 512-byte write). */
async function fillDisk(): Promise<void> {
  const handle = await fsp.open(filler, 'a');
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          await handle.write(chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Frees `bytes` of the filler (the rest stays full). */
async function freeBytes(bytes: number): Promise<void> {
  const { size } = await fsp.stat(filler);
  await fsp.truncate(filler, Math.max(0, size - bytes));
}

const ENV = { DISK_RESERVE_MB: '4', DISK_LOW_MB: '10' };

async function stop(server: TestServer) {
  await server.app.close();
  await closeContext(server.ctx);
}

describe.skipIf(!mounted)('a full disk', () => {
  it('writes answer 507 storage_full with nothing half-written; reads and deletes work; the server starts', async () => {
    // The restart below must find the same database and bucket in the scale-out pass.
    const backends = await scaleOutEnvForTest();
    let server = await startTestServer({ ...backends, ...ENV, DATA_DIR: mountPoint });
    try {
      const photos = await Promise.all([1, 2, 3].map((seed) => makeJpeg({ width: 200, height: 150, seed, noise: 10 })));
      const up = await server.json('/api/images/upload-files/', { method: 'POST', body: formWith(photos.map((data, i) => ({ name: `p${i}.jpg`, data }))) });
      expect(up.status).toBe(201);
      await server.ctx.space.restoreReserve();
      expect(fs.existsSync(path.join(mountPoint, 'space-reserve'))).toBe(true);

      await fillDisk();
      const before = await storedState(server);

      // The Connection screen's figures: free space, and the warning.
      const status = await server.json('/api/status/');
      expect(status.status).toBe(200);
      expect(status.body.disk).toMatchObject({ low: true });
      expect(status.body.disk.free_bytes).toBeLessThan(1 << 20);

      // Uploads: 507 before a byte is stored.
      const refused = await server.json('/api/images/upload-files/', { method: 'POST', body: formWith([{ name: 'new.jpg', data: await makeJpeg({ seed: 9 }) }]) });
      expect(refused.status).toBe(507);
      expect(refused.body.code).toBe('storage_full');
      expect(await storedState(server)).toEqual(before);

      // A write that starts with room and runs out of it half way: 507, its temp file gone.
      await freeBytes(6 << 20);
      const big = crypto.randomBytes(12 << 20);
      const halfway = await server.json('/api/images/upload-files/', { method: 'POST', body: formWith([{ name: 'big.jpg', data: big }]) });
      expect(halfway.status).toBe(507);
      expect(halfway.body.code).toBe('storage_full');
      expect(await storedState(server)).toEqual(before);
      await fillDisk();

      // Small writes: done or 507, never a 500.
      const folder = await server.json('/api/folders/', { method: 'POST', body: { name: 'on a full disk' } });
      expect([201, 507]).toContain(folder.status);

      // Reads work.
      const list = await server.json('/api/images/');
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(3);
      const image = list.body.results[0];
      expect((await server.request(image.image_url)).status).toBe(200);

      // Deletes work at 0 bytes free and give the space back.
      const del = await server.json(`/api/images/${image.id}/`, { method: 'DELETE' });
      expect(del.status).toBe(204);
      expect((await server.json('/api/images/')).body.count).toBe(2);

      // The server starts on a full disk (stopped, filled to the last byte, started again).
      await stop(server);
      await fillDisk();
      server = await startTestServer({ ...backends, ...ENV, DATA_DIR: mountPoint });
      expect((await server.json('/api/status/')).status).toBe(200);
      expect((await server.json('/api/images/')).body.count).toBe(2);
      const second = (await server.json('/api/images/')).body.results[0];
      expect((await server.json(`/api/images/${second.id}/`, { method: 'DELETE' })).status).toBe(204);

      // Space freed: uploads work again.
      await fsp.rm(filler);
      const again = await server.json('/api/images/upload-files/', { method: 'POST', body: formWith([{ name: 'after.jpg', data: await makeJpeg({ seed: 10 }) }]) });
      expect(again.status).toBe(201);
    } finally {
      await stop(server).catch(() => undefined);
    }
  });
});
