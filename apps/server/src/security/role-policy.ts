import type { Role } from '@cassavascope/contract';

/**
 * Who may call what (api.md, "Security and sign-in"): the one table every request is checked against when
 * sign-in is on. `public` needs no session; a role needs a session whose role is at least that one
 * (viewer < researcher < admin). Rules are by method and Fastify's route pattern, so a new route is covered
 * by its method without an edit: reads are for viewers, writes for researchers, /users for admins.
 * A route no rule covers is refused to everyone (`undefined`), and the role-matrix test fails on it.
 */
export type Access = 'public' | Role;

const RANK: Record<Role, number> = { viewer: 0, researcher: 1, admin: 2 };

export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

const READS = new Set(['GET', 'HEAD']);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Exceptions to the method rule, by `METHOD pattern`. */
const EXPLICIT: Record<string, Access> = {
  // Signing in and the connection check need no session (api.md).
  'POST /api/auth/login/': 'public',
  'GET /api/status/': 'public',
  'HEAD /api/status/': 'public',
  // Reading every stored file again is an admin's call (the scheduled check runs by itself).
  'POST /api/storage-check/': 'admin',
  // A viewer ends their own session.
  'POST /api/auth/logout/': 'viewer',
  // The web app's page and its assets: the sign-in screen must load before anyone is signed in.
  'GET /': 'public',
  'HEAD /': 'public',
  'GET /index.html': 'public',
  'HEAD /index.html': 'public',
  'GET /*': 'public',
  'HEAD /*': 'public',
};

/**
 * The access a route needs. `url` is Fastify's pattern (`/api/images/:id/`), or undefined when no route
 * matched (a 404 to be): unknown /api and /media paths then need a session, so their 404 tells an
 * anonymous caller nothing.
 */
export function accessFor(method: string, url: string | undefined, path: string): Access | undefined {
  const apiOrMedia = (p: string) => p === '/api' || p.startsWith('/api/') || p === '/media' || p.startsWith('/media/');
  // No route, or the web app's catch-all answering a path under /api or /media (with a 404).
  if (url === undefined || (apiOrMedia(path) && !apiOrMedia(url))) return apiOrMedia(path) ? 'viewer' : 'public';
  const explicit = EXPLICIT[`${method} ${url}`];
  if (explicit) return explicit;
  if (url.startsWith('/api/users/') || url === '/api/users')
    return WRITES.has(method) || READS.has(method) ? 'admin' : undefined;
  if (url.startsWith('/api/')) {
    if (READS.has(method)) return 'viewer';
    if (WRITES.has(method)) return 'researcher';
    return undefined;
  }
  if (url.startsWith('/media/')) return READS.has(method) ? 'viewer' : undefined;
  return undefined;
}
