import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImagesRepository } from '../src/images/images.repository.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let server: TestServer;

/** Rows inserted straight into the real database (uploads are tested in uploads.test.ts). */
async function seedImage(name: string, folderId: number | null, createdAt = new Date().toISOString()) {
  const sha = `${name}-${Math.random()}`.padEnd(64, '0');
  const row = await new ImagesRepository(server.ctx.db.kysely, server.ctx.db.dialect).insert({
    name,
    name_lower: name.toLowerCase(),
    folder_id: folderId,
    size: 1000,
    format: 'jpeg',
    width: 10,
    height: 10,
    sha256: sha,
    blob_key: `originals/${sha}.jpg`,
    thumb_key: `thumbs/${sha}.webp`,
    created_at: createdAt,
  });
  return row.id;
}

async function createFolder(name: string, description?: string) {
  const res = await server.json('/api/folders/', { method: 'POST', body: { name, description } });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string };
}

async function folderOf(imageId: number) {
  return (await server.json(`/api/images/${imageId}/`)).body.folderId as number | null;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
  await server.ctx.db.kysely.deleteFrom('folders').execute();
});

describe('POST /folders/', () => {
  it('creates a folder with a trimmed name and answers 201 with the Folder', async () => {
    const res = await server.json('/api/folders/', {
      method: 'POST',
      body: { name: '  Field trial 2026  ', description: 'north plot' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Field trial 2026', description: 'north plot', imageCount: 0 });
    expect(res.body.id).toBeGreaterThan(0);
    expect(res.body.createdDate).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('defaults the description to an empty string and keeps Chinese names', async () => {
    const res = await server.json('/api/folders/', { method: 'POST', body: { name: '木薯 试验 🌱' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: '木薯 试验 🌱', description: '' });
  });

  it.each([
    ['missing', {}],
    ['blank', { name: '   ' }],
    ['empty', { name: '' }],
    ['too long', { name: 'x'.repeat(101) }],
    ['not a string', { name: 42 }],
    ['null', { name: null }],
    ['NUL-containing', { name: 'a\u0000b' }],
    ['multi-line', { name: 'plot\nA' }],
    ['broken UTF-16 (lone surrogate)', { name: 'plot \ud800' }],
  ])('rejects a %s name with 400 invalid and fields.name', async (_label, body) => {
    const res = await server.json('/api/folders/', { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(typeof res.body.detail).toBe('string');
    expect(res.body.fields.name).toBeTruthy();
    expect((await server.json('/api/folders/')).body.count).toBe(0);
  });

  it('accepts exactly 100 characters', async () => {
    const res = await server.json('/api/folders/', { method: 'POST', body: { name: 'y'.repeat(100) } });
    expect(res.status).toBe(201);
  });

  it('answers 409 name_exists for the same name in another case, and stores nothing', async () => {
    await createFolder('Plot A');
    const res = await server.json('/api/folders/', { method: 'POST', body: { name: ' plot a ' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('name_exists');
    expect((await server.json('/api/folders/')).body.count).toBe(1);
  });

  it('answers 400 invalid_json for a malformed body, and a non-object body is a field error', async () => {
    const bad = await server.json('/api/folders/', {
      method: 'POST',
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_json');
    const arr = await server.json('/api/folders/', { method: 'POST', body: [1, 2] });
    expect(arr.status).toBe(400);
    expect(arr.body.code).toBe('invalid');
  });

  it('a JSON Content-Type with no body is no body: DELETE answers 204, POST a field error', async () => {
    const f = await createFolder('Header only');
    const headers = { 'content-type': 'application/json' };
    const del = await server.request(`/api/folders/${f.id}/`, { method: 'DELETE', headers });
    expect(del.status).toBe(204);
    expect((await server.json(`/api/folders/${f.id}/`)).status).toBe(404);
    const post = await server.json('/api/folders/', { method: 'POST', body: '', headers });
    expect(post.status).toBe(400);
    expect(post.body.fields).toHaveProperty('name');
  });
});

describe('GET /folders/', () => {
  it('lists folders by name, case-insensitively, in the list envelope with imageCount', async () => {
    const b = await createFolder('banana');
    await createFolder('Apple');
    await createFolder('cherry');
    await seedImage('x.jpg', b.id);
    await seedImage('y.jpg', b.id);
    const res = await server.json('/api/folders/');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
    expect(res.body.results.map((f: any) => f.name)).toEqual(['Apple', 'banana', 'cherry']);
    expect(res.body.results[1]).toMatchObject({ id: b.id, imageCount: 2, description: '' });
  });

  it('pages with page and page_size and gives next/previous links', async () => {
    for (const n of ['a', 'b', 'c', 'd', 'e']) await createFolder(n);
    const p1 = await server.json('/api/folders/?page_size=2&foo=bar');
    expect(p1.body.results.map((f: any) => f.name)).toEqual(['a', 'b']);
    expect(p1.body.previous).toBeNull();
    const next = new URL(p1.body.next);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('page_size')).toBe('2');
    const p2 = await server.json(next.pathname + next.search);
    expect(p2.body.results.map((f: any) => f.name)).toEqual(['c', 'd']);
    expect(p2.body.previous).not.toBeNull();
    const p3 = await server.json('/api/folders/?page_size=2&page=3');
    expect(p3.body.results.map((f: any) => f.name)).toEqual(['e']);
    expect(p3.body.next).toBeNull();
  });

  it.each(['page=abc', 'page=0', 'page_size=-1', 'page_size=x'])('answers 400 for %s', async (q) => {
    const res = await server.json(`/api/folders/?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(Object.keys(res.body.fields)[0]).toBe(q.split('=')[0]);
  });

  it('answers the path with and without the trailing slash', async () => {
    await createFolder('one');
    const a = await server.json('/api/folders');
    const b = await server.json('/api/folders/');
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });
});

describe('GET and PUT /folders/{id}/', () => {
  it('gets one folder, with or without the trailing slash', async () => {
    const f = await createFolder('Field');
    for (const p of [`/api/folders/${f.id}/`, `/api/folders/${f.id}`]) {
      const res = await server.json(p);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: f.id, name: 'Field', imageCount: 0 });
    }
  });

  it('answers 404 for an unknown id and 400 for a non-integer id', async () => {
    expect((await server.json('/api/folders/999999/')).status).toBe(404);
    expect((await server.json('/api/folders/999999/')).body.code).toBe('not_found');
    for (const bad of ['abc', '1.5', '-2', '0']) {
      const res = await server.json(`/api/folders/${bad}/`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid');
    }
  });

  it('renames, allows saving under its own name in another case, and keeps the description when absent', async () => {
    const f = await createFolder('Plot', 'desc');
    const same = await server.json(`/api/folders/${f.id}/`, { method: 'PUT', body: { name: 'PLOT' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ name: 'PLOT', description: 'desc' });
    const renamed = await server.json(`/api/folders/${f.id}`, {
      method: 'PUT',
      body: { name: ' New ', description: '' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: f.id, name: 'New', description: '' });
  });

  it('answers 409 when renaming onto another folder name, 400 for a blank name, 404 for an unknown folder', async () => {
    await createFolder('Taken');
    const f = await createFolder('Mine');
    const conflict = await server.json(`/api/folders/${f.id}/`, { method: 'PUT', body: { name: 'taken' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('name_exists');
    const blank = await server.json(`/api/folders/${f.id}/`, { method: 'PUT', body: { name: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.fields.name).toBeTruthy();
    expect((await server.json(`/api/folders/${f.id}/`)).body.name).toBe('Mine');
    expect((await server.json('/api/folders/424242/', { method: 'PUT', body: { name: 'x' } })).status).toBe(404);
  });
});

describe('DELETE /folders/{id}/', () => {
  it('moves the images to uncategorised by default', async () => {
    const f = await createFolder('Gone');
    const img = await seedImage('a.jpg', f.id);
    const res = await server.request(`/api/folders/${f.id}/`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect((await server.json(`/api/folders/${f.id}/`)).status).toBe(404);
    expect(await folderOf(img)).toBeNull();
  });

  it('moves the images into the target folder', async () => {
    const f = await createFolder('Old');
    const t = await createFolder('Target');
    const img = await seedImage('a.jpg', f.id);
    const res = await server.request(`/api/folders/${f.id}/?images=move&target=${t.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await folderOf(img)).toBe(t.id);
    expect((await server.json(`/api/folders/${t.id}/`)).body.imageCount).toBe(1);
  });

  it('changes nothing for an unknown target (400 unknown_ids), a bad mode or a bad target (400)', async () => {
    const f = await createFolder('Keep');
    const img = await seedImage('a.jpg', f.id);
    const unknown = await server.json(`/api/folders/${f.id}/?target=987654`, { method: 'DELETE' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_ids', ids: [987654] });
    const badMode = await server.json(`/api/folders/${f.id}/?images=burn`, { method: 'DELETE' });
    expect(badMode.status).toBe(400);
    expect(badMode.body.fields.images).toBeTruthy();
    const badTarget = await server.json(`/api/folders/${f.id}/?target=abc`, { method: 'DELETE' });
    expect(badTarget.status).toBe(400);
    const self = await server.json(`/api/folders/${f.id}/?target=${f.id}`, { method: 'DELETE' });
    expect(self.status).toBe(400);
    expect((await server.json(`/api/folders/${f.id}/`)).body.imageCount).toBe(1);
    expect(await folderOf(img)).toBe(f.id);
  });

  it("deletes the images with images=delete, and only that folder's", async () => {
    const f = await createFolder('Trash');
    const other = await seedImage('keep.jpg', null);
    await seedImage('a.jpg', f.id);
    await seedImage('b.jpg', f.id);
    const res = await server.request(`/api/folders/${f.id}/?images=delete`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    const list = await server.json('/api/images/');
    expect(list.body.results.map((i: any) => i.id)).toEqual([other]);
  });

  it('answers 404 for an unknown folder', async () => {
    const res = await server.json('/api/folders/31337/', { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('POST /folders/{id}/add_images/', () => {
  it('moves images into the folder and answers {moved}', async () => {
    const f = await createFolder('Dest');
    const a = await seedImage('a.jpg', null);
    const b = await seedImage('b.jpg', null);
    const res = await server.json(`/api/folders/${f.id}/add_images/`, {
      method: 'POST',
      body: { image_ids: [a, b, a] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ moved: 2 });
    expect(await folderOf(a)).toBe(f.id);
    expect((await server.json(`/api/folders/${f.id}/images/`)).body.count).toBe(2);
  });

  it.each(['none', ''])('makes images uncategorised with folder id "%s"', async (id) => {
    const f = await createFolder('Src');
    const a = await seedImage('a.jpg', f.id);
    const res = await server.json(`/api/folders/${id}/add_images/`, { method: 'POST', body: { image_ids: [a] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ moved: 1 });
    expect(await folderOf(a)).toBeNull();
  });

  it('moves nothing when one id is unknown (400 unknown_ids)', async () => {
    const f = await createFolder('Dest');
    const a = await seedImage('a.jpg', null);
    const res = await server.json(`/api/folders/${f.id}/add_images/`, {
      method: 'POST',
      body: { image_ids: [a, 55555] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_ids', ids: [55555] });
    expect(await folderOf(a)).toBeNull();
  });

  it('answers 404 for an unknown folder and 400 for a malformed body', async () => {
    const a = await seedImage('a.jpg', null);
    expect(
      (await server.json('/api/folders/4040/add_images/', { method: 'POST', body: { image_ids: [a] } })).status,
    ).toBe(404);
    const f = await createFolder('Dest');
    for (const body of [{}, { image_ids: 'x' }, { image_ids: [1.5] }, { image_ids: [-1] }]) {
      const res = await server.json(`/api/folders/${f.id}/add_images/`, { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(res.body.fields.image_ids ?? res.body.fields['image_ids.0']).toBeTruthy();
    }
  });
});

describe('GET /folders/{id}/images/', () => {
  it("lists the folder's images like GET /images/?folder=id, and 404s for an unknown folder", async () => {
    const f = await createFolder('F');
    await seedImage('in.jpg', f.id);
    await seedImage('out.jpg', null);
    const res = await server.json(`/api/folders/${f.id}/images/`);
    expect(res.status).toBe(200);
    expect(res.body.results.map((i: any) => i.name)).toEqual(['in.jpg']);
    const same = await server.json(`/api/images/?folder=${f.id}`);
    expect(same.body.results).toEqual(res.body.results);
    expect(res.body.facets).toEqual({ all: 2, uncategorized: 1 });
    expect((await server.json('/api/folders/777/images/')).status).toBe(404);
  });
});
