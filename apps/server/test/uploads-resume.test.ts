import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeContext } from '../src/context.js';
import { PENDING_UPLOAD_TTL_MS, PendingUploads } from '../src/uploads/pending-uploads.js';
import { storedKeys, storedState } from './helpers/data-dir.js';
import { formWith, makeJpeg, makeZip } from './helpers/fixtures.js';
import { scaleOutEnvForTest } from './helpers/scale-out-env.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 15 item 11: the choice after a 409 duplicate does not send the bytes again. With `resumable=1` the 409
 * carries `upload_token` (the server keeps the staged files) and `matches` (by name or by content, and which
 * image); `POST /images/upload-resume/` stores them with the chosen action.
 */
let server: TestServer;

const pendingKeys = async (s: TestServer) => (await storedKeys(s)).filter((k) => k.startsWith('pending/'));
const upload = (
  path: string,
  files: { name: string; data: Buffer; field?: string }[],
  fields: Record<string, string> = {},
) => server.json(path, { method: 'POST', body: formWith(files, fields) });
const resume = (body: unknown) => server.json('/api/images/upload-resume/', { method: 'POST', body });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  const all = await server.json('/api/images/?page_size=1000');
  for (const img of all.body.results) await server.json(`/api/images/${img.id}/`, { method: 'DELETE' });
});

describe('resumable duplicate choice', () => {
  it('upload-files: the 409 names each match and keeps the files; skip and overwrite need no bytes', async () => {
    const a = await makeJpeg({ seed: 70 });
    const b = await makeJpeg({ seed: 71 });
    const first = await upload('/api/images/upload-files/', [{ name: 'plot.jpg', data: a }]);
    const existing = first.body.uploaded[0];

    // A name match (new bytes) and a content match (same bytes, another name), plus a new file.
    const c = await makeJpeg({ seed: 72, width: 80, height: 40 });
    const conflict = await upload(
      '/api/images/upload-files/',
      [
        { name: 'plot.jpg', data: c },
        { name: 'copy.jpg', data: a },
        { name: 'new.jpg', data: b },
      ],
      { resumable: '1' },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.duplicates).toEqual(['plot.jpg', 'copy.jpg']);
    expect(conflict.body.matches).toEqual([
      { name: 'plot.jpg', by: 'name', existing: { id: existing.id, name: 'plot.jpg', folder_id: null } },
      { name: 'copy.jpg', by: 'content', existing: { id: existing.id, name: 'plot.jpg', folder_id: null } },
    ]);
    expect(conflict.body.upload_token).toMatch(/^[\w-]{20,}$/);
    expect((await storedState(server)).images).toBe(1);
    // Kept where every API process sees them: the bytes in storage (the three files and their thumbnails), not
    // this process's temp dir.
    expect(await pendingKeys(server)).toHaveLength(6);
    expect((await storedState(server)).tmp).toEqual([]);

    // The choice: no files sent.
    const done = await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'overwrite' });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ count: 2, skipped: ['copy.jpg'], errors: [] });
    expect(done.body.uploaded.map((i: { name: string }) => i.name)).toEqual(['plot.jpg', 'new.jpg']);
    expect(done.body.uploaded[0]).toMatchObject({ id: existing.id, width: 80, height: 40 });
    // Used once; its files are gone from the temp dir.
    expect((await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'skip' })).status).toBe(410);
    expect((await storedState(server)).tmp).toEqual([]);
    expect(await pendingKeys(server)).toEqual([]);
    // Not even an empty folder per kept upload on the local store.
    if (server.ctx.storage.kind === 'local')
      expect(await fs.readdir(path.join(server.dataDir, 'blobs', 'pending')).catch(() => [])).toEqual([]);
  });

  it('upload-batch: a ZIP refused for duplicates is stored from the kept entries with skip', async () => {
    const a = await makeJpeg({ seed: 80 });
    const b = await makeJpeg({ seed: 81 });
    await upload('/api/images/upload-files/', [{ name: 'a.jpg', data: a }]);
    const zip = await makeZip([
      { name: 'a.jpg', data: a },
      { name: 'dir/b.jpg', data: b },
    ]);
    const conflict = await upload('/api/images/upload-batch/', [{ field: 'file', name: 'batch.zip', data: zip }], {
      resumable: '1',
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.matches).toEqual([
      { name: 'a.jpg', by: 'name_and_content', existing: expect.objectContaining({ name: 'a.jpg' }) },
    ]);
    const done = await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'skip' });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ count: 1, skipped: ['a.jpg'] });
    expect((await storedState(server)).tmp).toEqual([]);
    expect(await pendingKeys(server)).toEqual([]);
  });

  it('keeps the newest 20 refused uploads; the oldest token goes with its files', async () => {
    const a = await makeJpeg({ seed: 60 });
    await upload('/api/images/upload-files/', [{ name: 'kept.jpg', data: a }]);
    const tokens: string[] = [];
    for (let i = 0; i < 21; i++) {
      const conflict = await upload('/api/images/upload-files/', [{ name: 'kept.jpg', data: a }], { resumable: '1' });
      expect(conflict.status).toBe(409);
      tokens.push(conflict.body.upload_token);
    }
    const kept = new Set((await pendingKeys(server)).map((k) => k.split('/')[1]));
    expect(kept.size).toBe(20);
    expect(kept.has(tokens[0]!)).toBe(false);
    expect((await resume({ upload_token: tokens[0], duplicate_action: 'skip' })).status).toBe(410);
    for (const t of tokens.slice(1))
      expect((await resume({ upload_token: t, duplicate_action: 'skip' })).status).toBe(201);
    expect(await pendingKeys(server)).toEqual([]);
  });

  it('an expired upload is swept by any process: its files go and its token is 410', async () => {
    const a = await makeJpeg({ seed: 85 });
    await upload('/api/images/upload-files/', [{ name: 'old.jpg', data: a }]);
    const conflict = await upload('/api/images/upload-files/', [{ name: 'old.jpg', data: a }], { resumable: '1' });
    expect(conflict.status).toBe(409);
    expect(await pendingKeys(server)).toHaveLength(2);
    // Another process's sweeper (its own instance on the same database and storage), once the lifetime has passed.
    const other = new PendingUploads({ db: server.ctx.db.kysely, storage: server.ctx.storage, log: server.ctx.log });
    try {
      await other.sweep(Date.now() + PENDING_UPLOAD_TTL_MS - 60_000);
      expect(await pendingKeys(server)).toHaveLength(2);
      await other.sweep(Date.now() + PENDING_UPLOAD_TTL_MS + 1000);
    } finally {
      await other.close();
    }
    expect(await pendingKeys(server)).toEqual([]);
    expect((await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'skip' })).status).toBe(410);
    expect((await storedState(server)).images).toBe(1);
  });

  it('without resumable the 409 keeps nothing; bad choices are 400, unknown tokens 410', async () => {
    const a = await makeJpeg({ seed: 90 });
    await upload('/api/images/upload-files/', [{ name: 'x.jpg', data: a }]);
    const plain = await upload('/api/images/upload-files/', [{ name: 'x.jpg', data: a }]);
    expect(plain.status).toBe(409);
    expect(plain.body.upload_token).toBeUndefined();
    expect((await storedState(server)).tmp).toEqual([]);
    expect((await resume({ upload_token: 'nope', duplicate_action: 'skip' })).status).toBe(410);
    expect((await resume({ upload_token: 'nope', duplicate_action: 'keep' })).body.fields).toHaveProperty(
      'duplicate_action',
    );
    expect((await resume({ duplicate_action: 'skip' })).body.fields).toHaveProperty('upload_token');
  });
});

describe('resumable duplicate choice behind several API processes', () => {
  it('the choice reaches another process (the first one has stopped) and is stored there, once', async () => {
    // Two servers on one database and one storage: the same DATA_DIR (SQLite, local files) or the same
    // PostgreSQL database and S3 bucket (the scale-out pass).
    const env = { DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-two-')), ...(await scaleOutEnvForTest()) };
    const first = await startTestServer(env);
    const a = await makeJpeg({ seed: 95 });
    const b = await makeJpeg({ seed: 96 });
    const c = await makeJpeg({ seed: 97, width: 90, height: 30 });
    const kept = await first.json('/api/images/upload-files/', {
      method: 'POST',
      body: formWith([{ name: 'leaf.jpg', data: a }]),
    });
    const zip = await makeZip([
      { name: 'leaf.jpg', data: c },
      { name: 'root.jpg', data: b },
    ]);
    const conflict = await first.json('/api/images/upload-batch/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'plot.zip', data: zip }], { resumable: '1' }),
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.matches).toEqual([
      { name: 'leaf.jpg', by: 'name', existing: expect.objectContaining({ id: kept.body.uploaded[0].id }) },
    ]);
    // The process that refused it goes away (its memory with it); its data stays.
    await first.app.close();
    await closeContext(first.ctx);

    const second = await startTestServer(env);
    try {
      const done = await second.json('/api/images/upload-resume/', {
        method: 'POST',
        body: { upload_token: conflict.body.upload_token, duplicate_action: 'overwrite' },
      });
      expect(done.status).toBe(201);
      expect(done.body.uploaded.map((i: { name: string }) => i.name)).toEqual(['leaf.jpg', 'root.jpg']);
      expect(done.body.uploaded[0]).toMatchObject({ id: kept.body.uploaded[0].id, width: 90, height: 30 });
      const listed = await second.json('/api/images/?ordering=name');
      expect(listed.body.results.map((i: { name: string }) => i.name)).toEqual(['leaf.jpg', 'root.jpg']);
      // The stored files are whole: the thumbnail kept with the upload is served.
      const thumb = await second.request(new URL(done.body.uploaded[1].thumbnail_url, second.url).pathname);
      expect(thumb.status).toBe(200);
      expect((await thumb.arrayBuffer()).byteLength).toBeGreaterThan(100);
      // Used once, wherever it is asked for again; nothing of it is left behind.
      expect(
        (
          await second.json('/api/images/upload-resume/', {
            method: 'POST',
            body: { upload_token: conflict.body.upload_token, duplicate_action: 'skip' },
          })
        ).status,
      ).toBe(410);
      expect(await pendingKeys(second)).toEqual([]);
      expect((await storedState(second)).tmp).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
