import { libraryFiguresSchema } from '@cassavascope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AUTH_ENV, addUser, signIn } from './helpers/sign-in.js';
import { makeGreyJpeg, makeSpecimenJpeg, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 25 item 4: the home page's statistics are this library's real figures (GET /figures/, an addition), not
 * the spec's invented "50000+ images analysed, 120+ researchers": nothing on a fresh install; photos, photos
 * scored, specimens scored (each photo once, by its newest result), photos reviewed; researchers = user accounts
 * with sign-in on (1 with it off).
 */
describe('GET /figures/ with sign-in off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is all zero on a fresh install, with one researcher', async () => {
    const res = await server.json('/api/figures/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ photos: 0, photos_scored: 0, specimens_scored: 0, photos_reviewed: 0, researchers: 1 });
    expect(libraryFiguresSchema.parse(res.body)).toEqual(res.body);
  });

  it('counts photos, scored photos and their specimens once per photo, and reviewed photos', async () => {
    const files = [
      { name: 'a.jpg', bytes: await makeSpecimenJpeg({ seed: 3 }) },
      { name: 'b.jpg', bytes: await makeSpecimenJpeg({ seed: 8 }) },
      { name: 'grey.jpg', bytes: await makeGreyJpeg() },
    ];
    const uploaded = await uploadFiles(server.url, files);
    const ids = uploaded.map((u) => u.id);
    for (const run of [ids, ids.slice(0, 1)]) {
      const task = await server.json('/api/tasks/prediction/', {
        method: 'POST',
        body: { name: 'Run', image_ids: run },
      });
      expect(task.status).toBe(201);
      await waitForTask(server.url, task.body.id);
    }
    // a.jpg was scored twice: its newest result's specimens count once. The grey photo was refused.
    const newest = (await server.json('/api/predictions/?newest_per_image=true&page_size=10')).body.results as {
      id: number;
      sub_ppd_values: number[];
      specimens: { index: number }[];
    }[];
    expect(newest).toHaveLength(2);
    const specimens = newest.reduce((a, r) => a + r.sub_ppd_values.length, 0);
    expect(specimens).toBeGreaterThanOrEqual(4);
    expect((await server.json('/api/figures/')).body).toEqual({
      photos: 3,
      photos_scored: 2,
      specimens_scored: specimens,
      photos_reviewed: 0,
      researchers: 1,
    });
    // A reviewer excludes a specimen of one photo: reviewed 1, one specimen fewer.
    const result = newest[0]!;
    const patch = await server.json(`/api/predictions/${result.id}/specimens/${result.specimens[0]!.index}/`, {
      method: 'PATCH',
      body: { excluded: true },
    });
    expect(patch.status).toBe(200);
    expect((await server.json('/api/figures/')).body).toMatchObject({
      photos_reviewed: 1,
      specimens_scored: specimens - 1,
    });
  });
});

describe('GET /figures/ with sign-in on', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(AUTH_ENV);
  });
  afterAll(async () => {
    await server.close();
  });

  it('needs a session, and counts the user accounts as researchers', async () => {
    const anonymous = await server.json('/api/figures/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_signed_in');
    const admin = await signIn(server, ADMIN.username, ADMIN.password);
    await addUser(server, admin, 'ana', 'researcher');
    await addUser(server, admin, 'li', 'viewer');
    const viewer = await signIn(server, 'li', 'li-password-1');
    const res = await server.json('/api/figures/', { headers: { cookie: viewer } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ photos: 0, researchers: 3 });
  });
});
