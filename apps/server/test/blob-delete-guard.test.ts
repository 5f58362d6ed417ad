import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardOf } from '../src/storage/blob-guard.js';
import { makeJpeg } from './helpers/fixtures.js';
import { startDeleterAndUploader } from './helpers/deleter-and-uploader.js';
import type { TestServer } from './helpers/test-server.js';

/**
 * Issue 26, point 1, each step of the race in a fixed order (blob-race.test.ts runs the race itself, at random).
 * Content-addressed blobs are shared by every row with the same bytes. A folder delete removes the blobs of its
 * rows only when no row refers to them when it removes them, and never one an upload holds: an upload of the same
 * bytes holds the keys from the moment it finds them in place until its row is committed. Runs on SQLite + local
 * files, and on PostgreSQL + S3 with the upload's hold taken by a second API server (another process's sessions).
 */
/** `server` deletes; `uploader` uploads: a second API server on PostgreSQL + S3 (helpers/deleter-and-uploader.ts). */
let server: TestServer;
let uploader: TestServer;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, uploader, close } = await startDeleterAndUploader());
});
afterAll(async () => {
  await close?.();
});

let seed = 0;
const photo = async () => ({
  name: `p${++seed}.jpg`,
  bytes: await makeJpeg({ width: 80, height: 60, seed: 5000 + seed, noise: 20 }),
});

async function upload(into: TestServer, file: { name: string; bytes: Buffer }, folderId?: number) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(file.bytes)], { type: 'image/jpeg' }), file.name);
  if (folderId !== undefined) form.append('folder_id', String(folderId));
  form.append('check_duplicate', '0');
  const res = await into.json('/api/images/upload-files/', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  expect(res.body.uploaded).toHaveLength(1);
  const id = res.body.uploaded[0].id as number;
  const row = await server.ctx.db.kysely
    .selectFrom('images')
    .select(['blob_key', 'thumb_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, keys: [row.blob_key, row.thumb_key] };
}

async function folderWith(file: { name: string; bytes: Buffer }) {
  const folder = await server.json('/api/folders/', { method: 'POST', body: { name: `F${++seed}` } });
  expect(folder.status).toBe(201);
  const image = await upload(server, file, folder.body.id);
  return { folderId: folder.body.id as number, ...image };
}

const deleteFolder = async (id: number) =>
  (await server.request(`/api/folders/${id}/?images=delete`, { method: 'DELETE' })).status;
const stored = async (keys: string[]) => Promise.all(keys.map((k) => server.ctx.storage.exists(k)));
const served = async (id: number) => {
  const image = await server.json(`/api/images/${id}/`);
  const res = await fetch(new URL(image.body.image_url, server.url));
  await res.arrayBuffer();
  return res.status;
};

describe('a folder delete and an upload of the same bytes, step by step', () => {
  it('removes the files of the rows it deleted when nothing else refers to them', async () => {
    const { folderId, keys } = await folderWith(await photo());
    expect(await stored(keys)).toEqual([true, true]);
    expect(await deleteFolder(folderId)).toBe(204);
    expect(await stored(keys)).toEqual([false, false]);
  });

  it('keeps them while another row has the same bytes', async () => {
    const file = await photo();
    const { folderId, keys } = await folderWith(file);
    const other = await upload(uploader, file);
    expect(other.keys).toEqual(keys);
    expect(await deleteFolder(folderId)).toBe(204);
    expect(await stored(keys)).toEqual([true, true]);
    expect(await served(other.id)).toBe(200);
  });

  it('keeps them while an upload of the same bytes holds them, and that upload’s row has its photo', async () => {
    const file = await photo();
    const { folderId, keys } = await folderWith(file);
    // The upload has found the files in place (it puts nothing) and holds them; its row is not committed yet.
    const guard = guardOf(uploader.ctx.storage);
    await guard.claim(keys);
    let held = true;
    try {
      expect(await deleteFolder(folderId)).toBe(204);
      expect(await stored(keys)).toEqual([true, true]);
      // Its row is committed (a real upload of the same bytes, which holds them too), then the hold ends.
      const reupload = await upload(uploader, file);
      expect(reupload.keys).toEqual(keys);
      guard.release(keys);
      held = false;
      expect(await served(reupload.id)).toBe(200);
      expect(await stored(keys)).toEqual([true, true]);
    } finally {
      if (held) guard.release(keys);
    }
  });
});
