import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formWith } from './helpers/fixtures.js';
import { ADMIN, addUser, AUTH_ENV, signIn } from './helpers/sign-in.js';
import { makeSpecimenJpeg } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Labels with sign-in on (api.md "Labels and lab models"): a viewer reads them, a researcher stores and removes
 * them and is named on them; without a session nothing is read; a removal is in the audit log.
 */
let server: TestServer;
let viewer: string;
let researcher: string;
let imageId: number;

beforeAll(async () => {
  server = await startTestServer(AUTH_ENV);
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  await addUser(server, admin, 'vera', 'viewer');
  await addUser(server, admin, 'rui', 'researcher');
  viewer = await signIn(server, 'vera', 'vera-password-1');
  researcher = await signIn(server, 'rui', 'rui-password-1');
  const upload = await server.json('/api/images/', {
    method: 'POST',
    headers: { cookie: researcher },
    body: formWith([{ field: 'file', name: 'slice.jpg', data: await makeSpecimenJpeg({ seed: 3 }) }]),
  });
  expect(upload.status).toBe(201);
  imageId = upload.body.id;
});
afterAll(async () => {
  await server.close();
});

async function labelForm(): Promise<FormData> {
  const values = Buffer.alloc(48 * 32, 2);
  values.fill(3, 0, 48 * 4);
  const png = await sharp(values, { raw: { width: 48, height: 32, channels: 1 } })
    .toColourspace('b-w')
    .png()
    .toBuffer();
  return formWith([{ field: 'file', name: 'labels.png', data: png }]);
}

const put = async (cookie?: string) =>
  server.json(`/api/images/${imageId}/labels/`, {
    method: 'PUT',
    headers: cookie ? { cookie } : {},
    body: await labelForm(),
  });

describe('labels with sign-in on', () => {
  it('a viewer reads, a researcher writes (and is named), nobody signed out does either', async () => {
    expect((await put()).status).toBe(401);
    const refused = await put(viewer);
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);

    const stored = await put(researcher);
    expect(stored.status).toBe(200);
    expect(stored.body.user).toMatchObject({ username: 'rui' });
    expect(stored.body.counts).toMatchObject({ healthy: expect.any(Number), lesion: expect.any(Number) });

    expect((await server.request(`/api/images/${imageId}/labels/`)).status).toBe(401);
    const read = await server.request(`/api/images/${imageId}/labels/`, { headers: { cookie: viewer } });
    expect([read.status, read.headers.get('content-type')]).toEqual([200, 'image/png']);
    const listed = await server.json('/api/images/?has_labels=true', { headers: { cookie: viewer } });
    expect(listed.body.results.map((i: { id: number }) => i.id)).toEqual([imageId]);

    const viewerDelete = await server.json(`/api/images/${imageId}/labels/`, {
      method: 'DELETE',
      headers: { cookie: viewer },
    });
    expect(viewerDelete.status).toBe(403);
    const removed = await server.request(`/api/images/${imageId}/labels/`, {
      method: 'DELETE',
      headers: { cookie: researcher },
    });
    expect(removed.status).toBe(204);
    const audit = await server.ctx.db.kysely.selectFrom('audit_log').selectAll().execute();
    expect(audit.filter((a) => a.action === 'DELETE /api/images/:id/labels/')).toMatchObject([{ username: 'rui' }]);
  });

  it('a write from another site is refused before anything is read', async () => {
    const res = await server.json(`/api/images/${imageId}/labels/`, {
      method: 'PUT',
      headers: { cookie: researcher, origin: 'https://elsewhere.example' },
      body: await labelForm(),
    });
    expect([res.status, res.body.code]).toEqual([403, 'cross_origin']);
    expect((await server.request(`/api/images/${imageId}/labels/`, { headers: { cookie: viewer } })).status).toBe(404);
  });
});
