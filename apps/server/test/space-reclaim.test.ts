import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardOf } from '../src/storage/blob-guard.js';
import { sweepOrphanBlobs } from '../src/maintenance/orphan-sweep.js';
import { sweepTempFiles } from '../src/storage/temp-sweep.js';
import { storedKeys, storedState } from './helpers/data-dir.js';
import { makeJpeg } from './helpers/fixtures.js';
import { multipartBody, RawConnection } from './helpers/raw-socket.js';
import { specimenFiles, uploadFiles } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/** Issue 13, point 3: space is given back (orphaned blobs, temp files of dead processes, stalled uploads). */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_IDLE_SECONDS: '0.5', ORPHAN_GRACE_MINUTES: '0' });
});
afterAll(async () => {
  await server?.close();
});

/** Every key some row refers to, read back through the API (the same on local files and S3). */
async function referencedKeys(): Promise<string[]> {
  const images = (await server.json('/api/images/?page_size=1000')).body.results as any[];
  return images.flatMap((i) => [i.image_url, i.thumbnail_url].map((u: string) => u.replace(/^.*\/media\//, ''))).sort();
}

describe('a stalled upload', () => {
  it('that sends nothing for UPLOAD_IDLE_SECONDS is aborted (408) and its temp files go', async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const head = `--B\r\nContent-Disposition: form-data; name="files"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
      conn.write(
        `POST /api/images/upload-files/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000000\r\n\r\n`,
      );
      conn.write(Buffer.concat([Buffer.from(head), await makeJpeg({ width: 300, height: 200, noise: 30 })]));
      const res = await conn.response(15_000);
      expect(res === undefined ? conn.isClosed : res.status === 408).toBe(true);
      if (res) expect(JSON.parse(res.body).code).toBe('timeout');
      let state = await storedState(server);
      for (let i = 0; i < 100 && state.tmp.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        state = await storedState(server);
      }
      expect(state).toEqual({ images: 0, blobs: [], tmp: [] });
    } finally {
      conn.close();
    }
  });

  it('a slow upload that keeps sending is not cut off', async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const jpeg = await makeJpeg({ width: 64, height: 48, seed: 77 });
      const body = multipartBody('B', [
        {
          headers: 'Content-Disposition: form-data; name="files"; filename="steady.jpg"\r\nContent-Type: image/jpeg',
          body: jpeg,
        },
      ]);
      conn.write(
        `POST /api/images/upload-files/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // Four pieces 0.3 s apart: 1.2 s in all, more than the 0.5 s idle limit, never idle that long.
      const step = Math.ceil(body.length / 4);
      for (let i = 0; i < body.length; i += step) {
        conn.write(body.subarray(i, i + step));
        await new Promise((r) => setTimeout(r, 300));
      }
      const res = await conn.response(15_000);
      expect(res?.status).toBe(201);
      const id = JSON.parse(res!.body).uploaded[0].id;
      await server.json(`/api/images/${id}/`, { method: 'DELETE' });
    } finally {
      conn.close();
    }
  });
});

describe('orphaned blobs', () => {
  it('files no row refers to are removed; referenced, claimed and running-task files stay', async () => {
    const images = await uploadFiles(server.url, await specimenFiles(3, { width: 120, height: 80 }));
    // What a crash leaves: a deleted image's files (rows gone, files not), a finished-and-deleted task's
    // result files, a blob moved into storage whose row never came.
    const victim = images[0]!;
    await server.ctx.db.kysely.deleteFrom('images').where('id', '=', victim.id).execute();
    const orphanSha = 'ab'.repeat(32);
    await server.ctx.storage.putBuffer(`originals/ab/${orphanSha}.jpg`, await makeJpeg({ seed: 5 }), 'image/jpeg');
    await server.ctx.storage.putBuffer(`thumbs/ab/${orphanSha}.webp`, Buffer.from('x'), 'image/webp');
    await server.ctx.storage.putBuffer('results/4242/1/pred_1.webp', Buffer.from('x'), 'image/webp');
    // An upload of this process between its put and its row: claimed, so it stays.
    const claimedSha = 'cd'.repeat(32);
    const claimed = `originals/cd/${claimedSha}.png`;
    await server.ctx.storage.putBuffer(claimed, Buffer.from('x'), 'image/png');
    await guardOf(server.ctx.storage).claim([claimed]);
    // Files of a running task are being written: they stay.
    const task = await server.ctx.db.kysely
      .insertInto('tasks')
      .values({
        name: 'running',
        name_lower: 'running',
        type: 'prediction',
        status: 'running',
        algorithm: 'x',
        model_type: 'x',
        image_ids: '[]',
        parameters: '{}',
        image_count: 0,
        error_message: null,
        completed_at: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as any)
      .returning('id')
      .executeTakeFirstOrThrow();
    const running = `results/${task.id}/${images[1]!.id}/pred_1.webp`;
    await server.ctx.storage.putBuffer(running, Buffer.from('x'), 'image/webp');

    const report = await sweepOrphanBlobs(server.ctx, 0);
    guardOf(server.ctx.storage).release([claimed]);
    const left = await storedKeys(server);
    const referenced = await referencedKeys();
    expect(left.sort()).toEqual([...referenced, claimed, running].sort());
    // The deleted image's original and thumbnail, the two planted content files, the deleted task's file.
    expect(report.removed).toBe(5);
    expect(left).not.toContain(`originals/ab/${orphanSha}.jpg`);
    expect(left).not.toContain('results/4242/1/pred_1.webp');

    // The claim released, the running task finished without a result for it: the next sweep takes both.
    await server.ctx.db.kysely
      .updateTable('tasks')
      .set({ status: 'cancelled' } as any)
      .where('id', '=', task.id)
      .execute();
    await sweepOrphanBlobs(server.ctx, 0);
    expect((await storedKeys(server)).sort()).toEqual(referenced);
    // The remaining images are intact.
    for (const key of referenced) expect(await server.ctx.storage.exists(key)).toBe(true);
    for (const img of images.slice(1)) await server.json(`/api/images/${img.id}/`, { method: 'DELETE' });
  });

  it('a grace period leaves young orphans alone (another API process may be mid-upload)', async () => {
    const sha = 'ef'.repeat(32);
    await server.ctx.storage.putBuffer(`originals/ef/${sha}.jpg`, Buffer.from('x'), 'image/jpeg');
    await sweepOrphanBlobs(server.ctx, 60_000);
    expect(await storedKeys(server)).toContain(`originals/ef/${sha}.jpg`);
    await sweepOrphanBlobs(server.ctx, 60_000, Date.now() + 120_000);
    expect(await storedKeys(server)).not.toContain(`originals/ef/${sha}.jpg`);
  });
});

describe('temp files of earlier processes', () => {
  it("go at start whatever their age; a live process keeps its own; another machine's go when stale", async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cassava-tmp-sweep-'));
    try {
      const tmp = path.join(dataDir, 'tmp');
      const host = os.hostname();
      const files = {
        loose: path.join(tmp, 'crashed-upload.part'),
        deadPid: path.join(tmp, `${host}.999999`, 'entry.part'),
        livePid: path.join(tmp, `${host}.${process.ppid}`, 'busy.part'),
        otherFresh: path.join(tmp, 'other-machine.12', 'busy.part'),
        otherStale: path.join(tmp, 'stale-machine.12', 'old.part'),
      };
      for (const f of Object.values(files)) {
        await fsp.mkdir(path.dirname(f), { recursive: true });
        await fsp.writeFile(f, 'bytes');
      }
      const old = new Date(Date.now() - 7 * 3600_000);
      await fsp.utimes(files.otherStale, old, old);
      await fsp.utimes(path.dirname(files.otherStale), old, old);
      const removed = await sweepTempFiles(dataDir);
      expect(removed).toBe(3);
      const exists = async (f: string) =>
        fsp.stat(f).then(
          () => true,
          () => false,
        );
      expect(await exists(files.loose)).toBe(false);
      expect(await exists(files.deadPid)).toBe(false);
      expect(await exists(files.otherStale)).toBe(false);
      expect(await exists(files.livePid)).toBe(true);
      expect(await exists(files.otherFresh)).toBe(true);
    } finally {
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });
});
