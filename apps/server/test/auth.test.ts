import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from './helpers/fixtures.js';
import { makeSpecimenJpeg } from './helpers/specimens.js';
import { ADMIN, AUTH_ENV, addUser, signIn } from './helpers/sign-in.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Sign-in and users (api.md, "Security and sign-in"; issue 14) against a real server with sign-in on:
 * every call and code of the section. The role of every route is walked in role-matrix.test.ts.
 */
let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startTestServer(AUTH_ENV);
  admin = await signIn(server, ADMIN.username, ADMIN.password);
});
afterAll(async () => server?.close());

const as = (cookie: string) => ({ headers: { cookie } });

describe('sign-in', () => {
  it('opens a session with an HttpOnly, SameSite=Lax cookie and names the user', async () => {
    const res = await server.json('/api/auth/login/', {
      method: 'POST',
      body: { username: 'ADMIN', password: ADMIN.password },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { id: expect.any(Number), username: 'admin', role: 'admin' } });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^cassavascope_session=[A-Za-z0-9_-]{40,}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure'); // plain HTTP here
    const me = await server.json('/api/auth/me/', as(cookie.split(';')[0]!));
    expect(me.body).toEqual({ user: res.body.user, auth: true });
  });

  it('gives the same 401 bad_credentials for a wrong password and an unknown user, and no cookie', async () => {
    const wrong = await server.json('/api/auth/login/', {
      method: 'POST',
      body: { username: 'admin', password: 'not-the-password' },
    });
    const unknown = await server.json('/api/auth/login/', {
      method: 'POST',
      body: { username: 'nobody-here', password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('bad_credentials');
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(unknown.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a malformed body with a 400 naming the field', async () => {
    const res = await server.json('/api/auth/login/', { method: 'POST', body: { username: 'admin' } });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('password');
  });

  it('needs a session for everything but login and status', async () => {
    const status = await server.json('/api/status/');
    expect(status.status).toBe(200);
    // The endpoint checks answer for an anonymous caller too (they are up; they ask for a session).
    expect(status.body.endpoints.every((e: { ok: boolean }) => e.ok)).toBe(true);
    for (const path of [
      '/api/images/',
      '/api/auth/me/',
      '/api/tasks/',
      '/api/users/',
      '/api/no-such-thing/',
      '/media/originals/x.jpg',
    ]) {
      const res = await server.json(path);
      expect(res.status, path).toBe(401);
      expect(res.body.code, path).toBe('not_signed_in');
    }
    const bogus = await server.json(
      '/api/images/',
      as('cassavascope_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    );
    expect(bogus.status).toBe(401);
    // The web app itself loads (it shows the sign-in page).
    expect((await server.request('/')).status).not.toBe(401);
  });

  it('ends the session a browser had when it signs in again', async () => {
    const first = await signIn(server, ADMIN.username, ADMIN.password);
    const again = await server.json('/api/auth/login/', {
      method: 'POST',
      ...as(first),
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(again.status).toBe(200);
    expect((await server.json('/api/auth/me/', as(first))).status).toBe(401);
    const second = again.headers.get('set-cookie')!.split(';')[0]!;
    expect((await server.json('/api/auth/me/', as(second))).status).toBe(200);
  });

  it('ends the session on sign-out', async () => {
    const cookie = await signIn(server, ADMIN.username, ADMIN.password);
    expect((await server.json('/api/images/', as(cookie))).status).toBe(200);
    const out = await server.request('/api/auth/logout/', { method: 'POST', ...as(cookie) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await server.json('/api/images/', as(cookie));
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('not_signed_in');
  });

  it('ends an expired session (401 not_signed_in)', async () => {
    const cookie = await signIn(server, ADMIN.username, ADMIN.password);
    expect((await server.json('/api/auth/me/', as(cookie))).status).toBe(200);
    // Time passes: every session of this server is now past its end.
    await server.ctx.db.kysely
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const res = await server.json('/api/auth/me/', as(cookie));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_signed_in');
    admin = await signIn(server, ADMIN.username, ADMIN.password);
  });

  it('stores only a salted scrypt hash of a password and only a hash of the session token', async () => {
    const row = await server.ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('username_key', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{20,}\$[A-Za-z0-9+/=]{40,}$/);
    expect(row.password_hash).not.toContain(ADMIN.password);
    const token = admin.split('=')[1]!;
    const sessions = await server.ctx.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === token)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
  });
});

describe('users (admin only)', () => {
  it('creates, lists, changes and deletes users', async () => {
    const created = await server.json('/api/users/', {
      method: 'POST',
      ...as(admin),
      body: { username: 'Wang.Li', password: 'a-long-password', role: 'viewer' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'Wang.Li', role: 'viewer' });
    const id = created.body.id;
    const list = await server.json('/api/users/', as(admin));
    expect(list.status).toBe(200);
    expect(list.body.results.map((u: any) => u.username)).toEqual(['admin', 'Wang.Li']);
    expect(JSON.stringify(list.body)).not.toContain('scrypt');

    const promoted = await server.json(`/api/users/${id}/`, {
      method: 'PATCH',
      ...as(admin),
      body: { role: 'researcher' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('researcher');

    // A new password works at once and ends the sessions opened with the old one.
    const old = await signIn(server, 'wang.li', 'a-long-password');
    const reset = await server.json(`/api/users/${id}/`, {
      method: 'PATCH',
      ...as(admin),
      body: { password: 'another-long-one' },
    });
    expect(reset.status).toBe(200);
    expect((await server.json('/api/auth/me/', as(old))).status).toBe(401);
    expect(
      (
        await server.json('/api/auth/login/', {
          method: 'POST',
          body: { username: 'wang.li', password: 'a-long-password' },
        })
      ).status,
    ).toBe(401);
    const fresh = await signIn(server, 'wang.li', 'another-long-one');
    expect((await server.json('/api/auth/me/', as(fresh))).body.user.role).toBe('researcher');

    const removed = await server.request(`/api/users/${id}/`, { method: 'DELETE', ...as(admin) });
    expect(removed.status).toBe(204);
    expect((await server.json('/api/auth/me/', as(fresh))).status).toBe(401);
    expect(
      (await server.json(`/api/users/${id}/`, { method: 'PATCH', ...as(admin), body: { role: 'admin' } })).status,
    ).toBe(404);
    expect((await server.request(`/api/users/${id}/`, { method: 'DELETE', ...as(admin) })).status).toBe(404);
  });

  it('refuses bad input with 400 naming the field, a taken name with 409, and changes nothing', async () => {
    const before = await server.json('/api/users/', as(admin));
    const short = await server.json('/api/users/', {
      method: 'POST',
      ...as(admin),
      body: { username: 'short', password: '123456789', role: 'viewer' },
    });
    expect(short.status).toBe(400);
    expect(short.body.fields).toHaveProperty('password');
    const badRole = await server.json('/api/users/', {
      method: 'POST',
      ...as(admin),
      body: { username: 'x', password: '1234567890', role: 'owner' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.fields).toHaveProperty('role');
    const badName = await server.json('/api/users/', {
      method: 'POST',
      ...as(admin),
      body: { username: 'a b', password: '1234567890', role: 'viewer' },
    });
    expect(badName.status).toBe(400);
    expect(badName.body.fields).toHaveProperty('username');
    const taken = await server.json('/api/users/', {
      method: 'POST',
      ...as(admin),
      body: { username: 'Admin', password: '1234567890', role: 'viewer' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('username_exists');
    const empty = await server.json('/api/users/1/', { method: 'PATCH', ...as(admin), body: {} });
    expect(empty.status).toBe(400);
    expect((await server.json('/api/users/', as(admin))).body).toEqual(before.body);
  });

  it('keeps the last admin: no demotion, no removal (409 last_admin) until another admin exists', async () => {
    const me = (await server.json('/api/auth/me/', as(admin))).body.user;
    const demote = await server.json(`/api/users/${me.id}/`, {
      method: 'PATCH',
      ...as(admin),
      body: { role: 'researcher' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('last_admin');
    const remove = await server.json(`/api/users/${me.id}/`, { method: 'DELETE', ...as(admin) });
    expect(remove.status).toBe(409);
    expect(remove.body.code).toBe('last_admin');
    expect((await server.json('/api/auth/me/', as(admin))).body.user.role).toBe('admin');

    const second = await addUser(server, admin, 'second-admin', 'admin');
    const demoted = await server.json(`/api/users/${second}/`, {
      method: 'PATCH',
      ...as(admin),
      body: { role: 'viewer' },
    });
    expect(demoted.status).toBe(200);
    await server.json(`/api/users/${second}/`, { method: 'PATCH', ...as(admin), body: { role: 'admin' } });
    // Two admins each step down at the same moment: one of them must stay admin.
    const other = await signIn(server, 'second-admin', 'second-admin-password-1');
    const [a, b] = await Promise.all([
      server.json(`/api/users/${me.id}/`, { method: 'PATCH', ...as(admin), body: { role: 'viewer' } }),
      server.json(`/api/users/${second}/`, { method: 'PATCH', ...as(other), body: { role: 'viewer' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a.body.code, b.body.code]).toContain('last_admin');
    const admins = await server.ctx.db.kysely.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
    // Whoever stayed admin keeps the test going.
    if (a.status === 200) admin = other;
  });
});

describe('roles', () => {
  it('lets a viewer read and export but not change anything; a researcher works; only an admin manages users', async () => {
    const viewerId = await addUser(server, admin, 'viewer1', 'viewer');
    await addUser(server, admin, 'researcher1', 'researcher');
    const viewer = await signIn(server, 'viewer1', 'viewer1-password-1');
    const researcher = await signIn(server, 'researcher1', 'researcher1-password-1');

    const form = new FormData();
    form.append('file', new Blob([await makeJpeg({ width: 64, height: 48 })], { type: 'image/jpeg' }), 'plot1.jpg');
    const refused = await server.json('/api/images/upload-files/', { method: 'POST', ...as(viewer), body: form });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await server.json('/api/images/', as(viewer))).body.count).toBe(0);

    const uploaded = await server.json('/api/images/upload-files/', { method: 'POST', ...as(researcher), body: form });
    expect(uploaded.status).toBe(201);
    const image = uploaded.body.uploaded[0];

    // The viewer sees it, its file, and the export.
    expect((await server.json('/api/images/', as(viewer))).body.count).toBe(1);
    const thumb = await server.request(image.thumbnail_url, as(viewer));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('cache-control')).toMatch(/^private\b/);
    expect((await server.request(image.thumbnail_url)).status).toBe(401);
    expect((await server.request('/api/predictions/export/', as(viewer))).status).toBe(200);
    expect((await server.json(`/api/images/${image.id}/`, { method: 'DELETE', ...as(viewer) })).status).toBe(403);
    expect((await server.json('/api/folders/', { method: 'POST', ...as(viewer), body: { name: 'x' } })).status).toBe(
      403,
    );
    expect((await server.json('/api/users/', as(researcher))).status).toBe(403);
    expect(
      (await server.json(`/api/users/${viewerId}/`, { method: 'PATCH', ...as(researcher), body: { role: 'admin' } }))
        .body.code,
    ).toBe('forbidden');

    // A role change counts at once, in the session already open.
    await server.json(`/api/users/${viewerId}/`, { method: 'PATCH', ...as(admin), body: { role: 'researcher' } });
    expect(
      (await server.json('/api/folders/', { method: 'POST', ...as(viewer), body: { name: 'Plot 1' } })).status,
    ).toBe(201);

    // Deletions are recorded with who did them.
    expect((await server.request(`/api/images/${image.id}/`, { method: 'DELETE', ...as(researcher) })).status).toBe(
      204,
    );
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ username: 'researcher1', action: 'DELETE /api/images/:id/' });
    expect(JSON.parse(audit.target)).toEqual({ id: String(image.id) });
  });
});

describe('who did it', () => {
  it('records the user who created a task and who reviewed a result (history names them)', async () => {
    await addUser(server, admin, 'reviewer1', 'researcher');
    const reviewer = await signIn(server, 'reviewer1', 'reviewer1-password-1');
    const me = (await server.json('/api/auth/me/', as(reviewer))).body.user;
    const form = new FormData();
    form.append(
      'files',
      new Blob([new Uint8Array(await makeSpecimenJpeg({ seed: 7 }))], { type: 'image/jpeg' }),
      'specimen_7.jpg',
    );
    form.append('check_duplicate', '0');
    const up = await server.json('/api/images/upload-files/', { method: 'POST', ...as(reviewer), body: form });
    expect(up.status).toBe(201);
    const created = await server.json('/api/tasks/', {
      method: 'POST',
      ...as(reviewer),
      body: { name: 'Plot 7', image_ids: [up.body.uploaded[0].id] },
    });
    expect(created.status).toBe(201);
    const row = await server.ctx.db.kysely
      .selectFrom('tasks')
      .select('created_by')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe(me.id);
    expect(created.body.created_by).toEqual({ id: me.id, username: 'reviewer1' });
    const listed = await server.json(`/api/tasks/?search=Plot 7`, as(reviewer));
    expect(listed.body.results[0].created_by).toEqual({ id: me.id, username: 'reviewer1' });

    let task = created.body;
    for (let i = 0; task.status === 'running' && i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      task = (await server.json(`/api/tasks/${task.id}/`, as(reviewer))).body;
    }
    expect(task.status).toBe('completed');
    const result = (await server.json(`/api/predictions/?task_id=${task.id}`, as(reviewer))).body.results[0];
    const changed = await server.json(`/api/predictions/${result.id}/specimens/1/`, {
      method: 'PATCH',
      ...as(reviewer),
      body: { ppd: 3.5, note: 'checked' },
    });
    expect(changed.status).toBe(200);
    const history = await server.json(`/api/predictions/${result.id}/history/`, as(reviewer));
    expect(history.body).toHaveLength(1);
    expect(history.body[0]).toMatchObject({
      change: 'ppd',
      to: 3.5,
      note: 'checked',
      user: { id: me.id, username: 'reviewer1' },
    });
  });
});

describe('sign-in defaults and transport', () => {
  it('is off on loopback by default: every call works without a session and me says auth false', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.ctx.config.auth.enabled).toBe(false);
      expect((await plain.json('/api/images/')).status).toBe(200);
      expect((await plain.json('/api/auth/me/')).body).toEqual({ user: null, auth: false });
    } finally {
      await plain.close();
    }
  });

  it('is on when HOST is not loopback, and AUTH=off turns it off', async () => {
    const { loadConfig } = await import('../src/config/config.js');
    expect(loadConfig({ HOST: '0.0.0.0' }).auth.enabled).toBe(true);
    expect(loadConfig({ HOST: '192.168.1.20' }).auth.enabled).toBe(true);
    expect(loadConfig({ HOST: '127.0.0.1' }).auth.enabled).toBe(false);
    expect(loadConfig({ HOST: '::1' }).auth.enabled).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', AUTH: 'off' }).auth.enabled).toBe(false);
    expect(loadConfig({ HOST: '127.0.0.1', AUTH: 'on' }).auth.enabled).toBe(true);
    expect(() => loadConfig({ ADMIN_USERNAME: 'a' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ ADMIN_USERNAME: 'a', ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ ADMIN_USERNAME: 'lab admin', ADMIN_PASSWORD: 'long-enough-1' })).toThrow(
      /ADMIN_USERNAME/,
    );
  });

  it('marks the cookie Secure behind HTTPS only when TRUST_PROXY says to believe X-Forwarded-Proto', async () => {
    const headers = { 'content-type': 'application/json', 'x-forwarded-proto': 'https' };
    const body = JSON.stringify({ username: ADMIN.username, password: ADMIN.password });
    const untrusted = await server.request('/api/auth/login/', { method: 'POST', headers, body });
    expect(untrusted.headers.get('set-cookie')).not.toContain('Secure');
    const proxied = await startTestServer({ ...AUTH_ENV, TRUST_PROXY: '1' });
    try {
      const res = await proxied.request('/api/auth/login/', { method: 'POST', headers, body });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });
});

describe('object storage with sign-in on', () => {
  it.runIf(process.env.TEST_S3_ENDPOINT)(
    'hands out files as short-lived presigned URLs behind the session-checked /media, never the public address',
    async () => {
      const s = await startTestServer({ ...AUTH_ENV, OSS_BASE_URL: 'http://bucket.example/public' });
      try {
        const cookie = await signIn(s, ADMIN.username, ADMIN.password);
        const form = new FormData();
        form.append('file', new Blob([await makeJpeg({ width: 40, height: 30 })], { type: 'image/jpeg' }), 'a.jpg');
        const image = (await s.json('/api/images/upload-files/', { method: 'POST', ...as(cookie), body: form })).body
          .uploaded[0];
        expect(image.thumbnail_url).toMatch(/^\/media\//);
        expect((await s.request(image.thumbnail_url)).status).toBe(401);
        const redirect = await s.request(image.thumbnail_url, { ...as(cookie), redirect: 'manual' });
        expect(redirect.status).toBe(302);
        const location = redirect.headers.get('location')!;
        expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*X-Amz-Signature=/);
        expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('600');
        const key = image.thumbnail_url.slice('/media/'.length);
        const viaBucket = Buffer.from(await (await fetch(location)).arrayBuffer());
        expect(viaBucket.equals((await s.ctx.storage.getBuffer(key))!)).toBe(true);
      } finally {
        await s.close();
      }
    },
  );
});

describe('repeated failures are slowed down', () => {
  it('per user name (any address) and per address (any name), across the whole server', async () => {
    const s = await startTestServer({ ...AUTH_ENV, TRUST_PROXY: '1' });
    try {
      const login = (username: string, password: string, address: string) =>
        s.json('/api/auth/login/', {
          method: 'POST',
          headers: { 'x-forwarded-for': address },
          body: { username, password },
        });
      // Five wrong passwords for one name, each from another address.
      for (let i = 0; i < 5; i++) expect((await login('admin', 'wrong-password', `10.0.0.${i + 1}`)).status).toBe(401);
      const slowed = await login('admin', ADMIN.password, '10.0.1.1');
      expect(slowed.status).toBe(429);
      expect(slowed.body.code).toBe('too_many_attempts');
      expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // An unknown name is counted the same way (the answer does not tell which names exist).
      for (let i = 0; i < 5; i++) expect((await login('ghost', 'wrong-password', `10.0.2.${i + 1}`)).status).toBe(401);
      expect((await login('ghost', 'wrong-password', '10.0.3.1')).status).toBe(429);
      // Twenty failures from one address, each for another name, slow that address down.
      for (let i = 0; i < 20; i++) expect((await login(`someone${i}`, 'wrong-password', '10.9.9.9')).status).toBe(401);
      expect((await login('other', 'wrong-password', '10.9.9.9')).status).toBe(429);
      // Once the delay has passed the right password works again.
      await s.ctx.db.kysely
        .updateTable('login_failures')
        .set({ created_at: new Date(Date.now() - 10 * 60_000).toISOString() })
        .execute();
      expect((await login('admin', ADMIN.password, '10.0.1.1')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
