import type { TestServer } from './test-server.js';

/** The first admin every sign-in test server starts with (ADMIN_USERNAME / ADMIN_PASSWORD). */
export const ADMIN = { username: 'admin', password: 'admin-password-1' };

/** A test server with sign-in on and the first admin configured. */
export const AUTH_ENV = { AUTH: 'on', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };

/** Signs in through the API; returns the `Cookie` header value of the new session. */
export async function signIn(server: TestServer, username: string, password: string): Promise<string> {
  const res = await server.json('/api/auth/login/', { method: 'POST', body: { username, password } });
  if (res.status !== 200) throw new Error(`sign-in as ${username} answered ${res.status} ${JSON.stringify(res.body)}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return setCookie.split(';')[0]!;
}

/** Creates a user as the given admin session; returns its id. */
export async function addUser(
  server: TestServer,
  adminCookie: string,
  username: string,
  role: string,
  password = `${username}-password-1`,
): Promise<number> {
  const res = await server.json('/api/users/', {
    method: 'POST',
    headers: { cookie: adminCookie },
    body: { username, password, role },
  });
  if (res.status !== 201) throw new Error(`creating ${username} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
