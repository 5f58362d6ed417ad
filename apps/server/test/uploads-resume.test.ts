import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedState } from './helpers/data-dir.js';
import { formWith, makeJpeg, makeZip } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 15 item 11: the choice after a 409 duplicate does not send the bytes again. With `resumable=1` the 409
 * carries `upload_token` (the server keeps the staged files) and `matches` (by name or by content, and which
 * image); `POST /images/upload-resume/` stores them with the chosen action.
 */
let server: TestServer;

const upload = (path: string, files: { name: string; data: Buffer; field?: string }[], fields: Record<string, string> = {}) =>
  server.json(path, { method: 'POST', body: formWith(files, fields) });
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
    const conflict = await upload('/api/images/upload-files/', [
      { name: 'plot.jpg', data: c },
      { name: 'copy.jpg', data: a },
      { name: 'new.jpg', data: b },
    ], { resumable: '1' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.duplicates).toEqual(['plot.jpg', 'copy.jpg']);
    expect(conflict.body.matches).toEqual([
      { name: 'plot.jpg', by: 'name', existing: { id: existing.id, name: 'plot.jpg', folder_id: null } },
      { name: 'copy.jpg', by: 'content', existing: { id: existing.id, name: 'plot.jpg', folder_id: null } },
    ]);
    expect(conflict.body.upload_token).toMatch(/^[\w-]{20,}$/);
    expect((await storedState(server)).images).toBe(1);

    // The choice: no files sent.
    const done = await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'overwrite' });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ count: 2, skipped: ['copy.jpg'], errors: [] });
    expect(done.body.uploaded.map((i: { name: string }) => i.name)).toEqual(['plot.jpg', 'new.jpg']);
    expect(done.body.uploaded[0]).toMatchObject({ id: existing.id, width: 80, height: 40 });
    // Used once; its files are gone from the temp dir.
    expect((await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'skip' })).status).toBe(410);
    expect((await storedState(server)).tmp).toEqual([]);
  });

  it('upload-batch: a ZIP refused for duplicates is stored from the kept entries with skip', async () => {
    const a = await makeJpeg({ seed: 80 });
    const b = await makeJpeg({ seed: 81 });
    await upload('/api/images/upload-files/', [{ name: 'a.jpg', data: a }]);
    const zip = await makeZip([{ name: 'a.jpg', data: a }, { name: 'dir/b.jpg', data: b }]);
    const conflict = await upload('/api/images/upload-batch/', [{ field: 'file', name: 'batch.zip', data: zip }], { resumable: '1' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.matches).toEqual([{ name: 'a.jpg', by: 'name_and_content', existing: expect.objectContaining({ name: 'a.jpg' }) }]);
    const done = await resume({ upload_token: conflict.body.upload_token, duplicate_action: 'skip' });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ count: 1, skipped: ['a.jpg'] });
    expect((await storedState(server)).tmp).toEqual([]);
  });

  it('without resumable the 409 keeps nothing; bad choices are 400, unknown tokens 410', async () => {
    const a = await makeJpeg({ seed: 90 });
    await upload('/api/images/upload-files/', [{ name: 'x.jpg', data: a }]);
    const plain = await upload('/api/images/upload-files/', [{ name: 'x.jpg', data: a }]);
    expect(plain.status).toBe(409);
    expect(plain.body.upload_token).toBeUndefined();
    expect((await storedState(server)).tmp).toEqual([]);
    expect((await resume({ upload_token: 'nope', duplicate_action: 'skip' })).status).toBe(410);
    expect((await resume({ upload_token: 'nope', duplicate_action: 'keep' })).body.fields).toHaveProperty('duplicate_action');
    expect((await resume({ duplicate_action: 'skip' })).body.fields).toHaveProperty('upload_token');
  });
});
