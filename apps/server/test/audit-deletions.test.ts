import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeJpeg } from './helpers/fixtures.js';
import { ADMIN, AUTH_ENV, addUser, signIn } from './helpers/sign-in.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 14: a deletion's audit entry is written in the deletion's own transaction, so the two commit together:
 * a deletion that fails inside its transaction leaves no entry, a successful one exactly one, naming who did it.
 * (A crash right after the commit keeps the entry: audit-deletions-crash.test.ts.)
 */
let server: TestServer;
let admin: string;
let adminId: number;

const as = (cookie: string) => ({ headers: { cookie } });

/** The audit log, read once any after-response hook had its time (so a second, late entry would show). */
async function auditEntries() {
  await new Promise((r) => setTimeout(r, 100));
  return server.ctx.db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute();
}

async function uploadImage(seed: number, folderId?: number): Promise<number> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await makeJpeg({ seed }))], { type: 'image/jpeg' }), `p${seed}.jpg`);
  if (folderId !== undefined) form.append('folder_id', String(folderId));
  const res = await server.json('/api/images/upload-files/', { method: 'POST', body: form, ...as(admin) });
  expect(res.status).toBe(201);
  return res.body.uploaded[0].id;
}

async function createFolder(name: string): Promise<number> {
  const res = await server.json('/api/folders/', { method: 'POST', body: { name }, ...as(admin) });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  server = await startTestServer(AUTH_ENV);
  admin = await signIn(server, ADMIN.username, ADMIN.password);
  adminId = (await server.json('/api/auth/me/', as(admin))).body.user.id;
});
afterAll(async () => server?.close());
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('audit_log').execute();
});

describe('DELETE /folders/{id}/', () => {
  it('that fails inside its transaction leaves no audit entry and deletes nothing', async () => {
    const folder = await createFolder('Plot 1');
    const image = await uploadImage(1, folder);
    const unknownTarget = await server.json(`/api/folders/${folder}/?images=move&target=999999`, {
      method: 'DELETE',
      ...as(admin),
    });
    expect(unknownTarget.status).toBe(400);
    expect(unknownTarget.body.code).toBe('unknown_ids');
    const ownTarget = await server.json(`/api/folders/${folder}/?images=move&target=${folder}`, {
      method: 'DELETE',
      ...as(admin),
    });
    expect(ownTarget.status).toBe(400);
    expect(await auditEntries()).toEqual([]);
    expect((await server.json(`/api/folders/${folder}/`, as(admin))).status).toBe(200);
    expect((await server.json(`/api/images/${image}/`, as(admin))).body.folderId).toBe(folder);
  });

  it('that succeeds leaves exactly one entry, naming who deleted what', async () => {
    const folder = await createFolder('Plot 2');
    await uploadImage(2, folder);
    const res = await server.request(`/api/folders/${folder}/?images=delete`, { method: 'DELETE', ...as(admin) });
    expect(res.status).toBe(204);
    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user_id: adminId, username: 'admin', action: 'DELETE /api/folders/:id/' });
    expect(JSON.parse(entries[0]!.target)).toEqual({ id: String(folder), images: 'delete' });
  });
});

describe('DELETE /images/{id}/', () => {
  it('of no image leaves no entry; of an image, exactly one', async () => {
    expect((await server.request('/api/images/999999/', { method: 'DELETE', ...as(admin) })).status).toBe(404);
    expect(await auditEntries()).toEqual([]);

    const image = await uploadImage(7);
    expect((await server.request(`/api/images/${image}/`, { method: 'DELETE', ...as(admin) })).status).toBe(204);
    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user_id: adminId, username: 'admin', action: 'DELETE /api/images/:id/' });
    expect(JSON.parse(entries[0]!.target)).toEqual({ id: String(image) });
    expect((await server.request(`/api/images/${image}/`, as(admin))).status).toBe(404);
  });
});

describe('DELETE /tasks/{id}/', () => {
  it('of no task leaves no entry; of a task, exactly one', async () => {
    expect((await server.request('/api/tasks/999999/', { method: 'DELETE', ...as(admin) })).status).toBe(404);
    expect(await auditEntries()).toEqual([]);

    const image = await uploadImage(3);
    const task = await server.json('/api/tasks/prediction/', {
      method: 'POST',
      body: { name: 'Audited run', type: 'prediction', image_ids: [image] },
      ...as(admin),
    });
    expect(task.status).toBe(201);
    expect((await server.request(`/api/tasks/${task.body.id}/`, { method: 'DELETE', ...as(admin) })).status).toBe(204);
    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ username: 'admin', action: 'DELETE /api/tasks/:id/' });
    expect(JSON.parse(entries[0]!.target)).toEqual({ id: String(task.body.id) });
    expect((await server.request(`/api/tasks/${task.body.id}/`, as(admin))).status).toBe(404);
  });
});

describe('DELETE /users/{id}/', () => {
  it('of the last admin (409, refused inside the transaction) leaves no entry; of a user, exactly one', async () => {
    const last = await server.json(`/api/users/${adminId}/`, { method: 'DELETE', ...as(admin) });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('last_admin');
    expect(await auditEntries()).toEqual([]);

    const viewer = await addUser(server, admin, 'viewer-audit', 'viewer');
    expect((await server.request(`/api/users/${viewer}/`, { method: 'DELETE', ...as(admin) })).status).toBe(204);
    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ username: 'admin', action: 'DELETE /api/users/:id/' });
    expect(JSON.parse(entries[0]!.target)).toEqual({ id: String(viewer) });
  });
});

describe('DELETE /images/{id}/', () => {
  it('still leaves exactly one entry (written right after its commit), and none when it fails', async () => {
    expect((await server.request('/api/images/999999/', { method: 'DELETE', ...as(admin) })).status).toBe(404);
    expect(await auditEntries()).toEqual([]);
    const image = await uploadImage(4);
    expect((await server.request(`/api/images/${image}/`, { method: 'DELETE', ...as(admin) })).status).toBe(204);
    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ username: 'admin', action: 'DELETE /api/images/:id/' });
  });
});
