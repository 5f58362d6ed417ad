import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formWith, makeJpeg } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 25 item 8: "Keep both" in the duplicate dialog. `duplicate_action=keep_both` (an addition beside api.md's
 * skip and overwrite) stores every duplicate: one whose name is taken in the folder (or earlier in the request)
 * under the first free "name (n).ext", one that only has the same bytes under its own name. Also after a
 * resumable 409 (`POST /images/upload-resume/`).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const upload = (files: { name: string; data: Buffer }[], fields: Record<string, string> = {}) =>
  server.json('/api/images/upload-files/', { method: 'POST', body: formWith(files, fields) });
const namesInFolder = async (folderId: number) =>
  ((await server.json(`/api/images/?folder_id=${folderId}&page_size=100&ordering=name`)).body.results as any[])
    .map((i) => i.name as string)
    .sort();

describe('duplicate_action=keep_both', () => {
  it('stores a name match as "name (n).ext", the first free n, beside the image it matched', async () => {
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: 'Keep both' } })).body;
    const fields = { folder_id: String(folder.id) };
    const first = await upload(
      [
        { name: 'plot.jpg', data: await makeJpeg({ seed: 300 }) },
        { name: 'plot (2).jpg', data: await makeJpeg({ seed: 301 }) },
      ],
      fields,
    );
    expect(first.status).toBe(201);

    // plot.jpg again (new bytes) twice in one request, and a copy of existing bytes under a new name.
    const again = [
      { name: 'plot.jpg', data: await makeJpeg({ seed: 302 }) },
      { name: 'plot.jpg', data: await makeJpeg({ seed: 303 }) },
      { name: 'copy.jpg', data: await makeJpeg({ seed: 300 }) },
    ];
    const refused = await upload(again, fields);
    expect(refused.status).toBe(409);
    expect(refused.body.duplicates).toEqual(['plot.jpg', 'plot.jpg', 'copy.jpg']);

    const kept = await upload(again, { ...fields, duplicate_action: 'keep_both' });
    expect(kept.status).toBe(201);
    expect(kept.body).toMatchObject({ count: 3, skipped: [], errors: [] });
    expect(kept.body.uploaded.map((i: any) => i.name)).toEqual(['plot (3).jpg', 'plot (4).jpg', 'copy.jpg']);
    expect(await namesInFolder(folder.id)).toEqual([
      'copy.jpg',
      'plot (2).jpg',
      'plot (3).jpg',
      'plot (4).jpg',
      'plot.jpg',
    ]);
    // The original is untouched (same id, same bytes).
    const original = first.body.uploaded[0];
    expect((await server.json(`/api/images/${original.id}/`)).body.sha256).toBe(original.sha256);
  });

  it('keeps both after a resumable 409 too, and refuses an unknown action naming duplicate_action', async () => {
    const a = await makeJpeg({ seed: 310 });
    await upload([{ name: 'field.jpg', data: a }]);
    const conflict = await upload([{ name: 'field.jpg', data: await makeJpeg({ seed: 311 }) }], { resumable: '1' });
    expect(conflict.status).toBe(409);
    const done = await server.json('/api/images/upload-resume/', {
      method: 'POST',
      body: { upload_token: conflict.body.upload_token, duplicate_action: 'keep_both' },
    });
    expect(done.status).toBe(201);
    expect(done.body.uploaded.map((i: any) => i.name)).toEqual(['field (2).jpg']);

    const bad = await upload([{ name: 'field.jpg', data: a }], { duplicate_action: 'rename' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('duplicate_action');
  });
});
