import { afterAll, beforeAll, expect, it } from 'vitest';
import { accessFor } from '../src/security/role-policy.js';
import { ADMIN, AUTH_ENV, addUser, signIn } from './helpers/sign-in.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Every route the server registers, called as anonymous, viewer, researcher and admin with sign-in on, against
 * what api.md ("Security and sign-in") says each may do. The expectation is written here from api.md, not read
 * from the policy table, so a route the table leaves out (refused to everyone) or classifies wrongly fails.
 */
type Who = 'anonymous' | 'viewer' | 'researcher' | 'admin';
const RANK: Record<Who, number> = { anonymous: -1, viewer: 0, researcher: 1, admin: 2 };

/** api.md: who may call `method url`; 'public' = no session needed. */
function expectedAccess(method: string, url: string): 'public' | Exclude<Who, 'anonymous'> {
  if (method === 'POST' && url === '/api/auth/login/') return 'public';
  if (method === 'GET' && url === '/api/status/') return 'public';
  // The web app's page and assets (the sign-in screen is one of them).
  if (!url.startsWith('/api/') && !url.startsWith('/media/')) return 'public';
  if (url.startsWith('/api/users')) return 'admin';
  // Reading every stored file again (the storage check) on demand is an admin's call; its result is a read.
  if (method === 'POST' && url === '/api/storage-check/') return 'admin';
  if (url === '/api/auth/logout/') return 'viewer';
  // viewer: reads and exports (the export is a GET); researcher: every change.
  return method === 'GET' ? 'viewer' : 'researcher';
}

/** A concrete path for a route pattern: ids that do not exist, a stored key that does not exist. */
function concretePath(url: string): string {
  return url
    .replace(/:[A-Za-z_]+/g, '999999')
    .replace(/\*$/, url.startsWith('/media/') ? 'originals/00/none.jpg' : 'no-such-page');
}

let server: TestServer;
const cookies: Partial<Record<Who, string>> = {};

beforeAll(async () => {
  server = await startTestServer(AUTH_ENV);
  cookies.admin = await signIn(server, ADMIN.username, ADMIN.password);
  for (const role of ['viewer', 'researcher'] as const) {
    await addUser(server, cookies.admin, `${role}-user`, role);
    cookies[role] = await signIn(server, `${role}-user`, `${role}-user-password-1`);
  }
});
afterAll(async () => server?.close());

it('answers every route for every role as api.md says', async () => {
  const routes = server.app.apiDocs.routes.map((r) => ({ method: r.method, url: r.url }));
  // Sign-out ends the session it is called with: last, so the other calls keep theirs.
  routes.sort((a, b) => Number(a.url === '/api/auth/logout/') - Number(b.url === '/api/auth/logout/'));
  const problems: string[] = [];
  let calls = 0;
  for (const { method, url } of routes) {
    if (accessFor(method, url, url) === undefined)
      problems.push(`${method} ${url}: no rule in auth/role-policy.ts covers it`);
    const expected = expectedAccess(method, url);
    for (const who of ['anonymous', 'viewer', 'researcher', 'admin'] as const) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (who !== 'anonymous') headers.cookie = cookies[who]!;
      const hasBody = method !== 'GET' && method !== 'DELETE';
      const res = await server.request(concretePath(url), { method, headers, ...(hasBody ? { body: '{}' } : {}) });
      await res.arrayBuffer();
      calls++;
      const allowed = expected === 'public' || RANK[who] >= RANK[expected];
      const want = allowed ? 'neither 401 nor 403' : who === 'anonymous' ? '401' : '403';
      const ok = allowed ? res.status !== 401 && res.status !== 403 : res.status === (who === 'anonymous' ? 401 : 403);
      if (!ok) problems.push(`${method} ${url} as ${who}: ${res.status}, expected ${want}`);
    }
  }
  console.log(`role matrix: ${routes.length} routes x 4 callers = ${calls} calls`);
  expect(problems).toEqual([]);
  expect(routes.length).toBeGreaterThan(40);
});

it('refuses a route no rule covers to everyone, so the walk above fails for it', () => {
  // A route outside /api, /media and the web app's own files, and a method the rules do not name.
  expect(accessFor('GET', '/internal/debug', '/internal/debug')).toBeUndefined();
  expect(accessFor('OPTIONS', '/api/images/', '/api/images/')).toBeUndefined();
  expect(accessFor('PATCH', '/media/*', '/media/x')).toBeUndefined();
  // Methods decide for routes added later (another engineer's metadata routes, for example).
  expect(accessFor('POST', '/api/images/metadata/parse/', '/api/images/metadata/parse/')).toBe('researcher');
  expect(accessFor('PATCH', '/api/images/:id/', '/api/images/1/')).toBe('researcher');
  expect(accessFor('GET', '/api/predictions/groups/', '/api/predictions/groups/')).toBe('viewer');
  expect(accessFor('DELETE', '/api/users/:id/', '/api/users/1/')).toBe('admin');
});
