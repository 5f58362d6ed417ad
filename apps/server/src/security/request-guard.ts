import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normaliseHostName, type AppConfig } from '../config/config.js';
import { urlProblem } from '../http/url-check.js';

/** Methods that change the library: a foreign page must not be able to send them (api.md, "Security"). */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), or null when it is not one. */
export function hostNameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  try {
    const url = new URL(`http://${hostHeader}`);
    // Anything beyond host[:port] (a path, credentials) makes it no Host at all.
    if (url.host.toLowerCase() !== hostHeader.toLowerCase() && `${url.host}:80` !== hostHeader.toLowerCase())
      return null;
    return normaliseHostName(url.hostname);
  } catch {
    return null;
  }
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * True when `origin` (an http(s) URL) is the origin the request was sent to: same host, same port, same scheme
 * (issue 26, item 4: a page on another port of the same host is another site). The port: the `Host` header's, or
 * when it names none, the scheme's default (a proxy forwarding `Host: lab.example.org`). The scheme: a plain-HTTP
 * request also accepts an `https` page of the same host and port, as a TLS-terminating proxy in front forwards
 * it (without TRUST_PROXY the server cannot tell); a request known to be HTTPS accepts only `https`.
 */
function isSameOrigin(origin: URL, hostHeader: string | undefined, protocol: string): boolean {
  const host = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(hostHeader ?? '');
  if (!host) return false;
  if (normaliseHostName(origin.hostname) !== normaliseHostName(host[1]!)) return false;
  const originPort = origin.port || DEFAULT_PORT[origin.protocol]!;
  if (host[2] !== undefined ? Number(originPort) !== Number(host[2]) : origin.port !== '') return false;
  return origin.protocol === 'https:' || protocol === 'http';
}

/**
 * True when a browser sent this request on behalf of a page of another site. `Origin` decides when present
 * (browsers send it on every cross-origin request and on same-origin POSTs): it must be the origin the request
 * was sent to (`isSameOrigin`: host, port and scheme; the Vite dev server's proxy keeps `Host` and `Origin`, so
 * pages it serves pass). `Origin: null` (sandboxed frames, file: pages) is foreign. Without `Origin`,
 * `Sec-Fetch-Site: cross-site` is. Requests with neither (curl, scripts) are not from a page.
 */
export function isCrossSite(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return true;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
    return !isSameOrigin(url, req.headers.host, req.protocol);
  }
  return req.headers['sec-fetch-site'] === 'cross-site';
}

/**
 * First hook of every request, before routing and body parsing: an unknown `Host` is a 421 (defeats DNS
 * rebinding: the attacker's page arrives under its own name); a state-changing request from another site is
 * a 403 (defeats cross-site form and fetch POSTs); a URL the docs refuse is a 414 or 400 (http/url-check.ts).
 * None reads the body, so nothing is staged or changed.
 */
export function registerRequestGuard(app: FastifyInstance, config: Pick<AppConfig, 'allowedHosts'>): void {
  const { allowedHosts } = config;
  app.addHook('onRequest', async (req, reply) => {
    if (allowedHosts !== null) {
      const host = hostNameOf(req.headers.host);
      if (host === null || !allowedHosts.has(host)) {
        return reply.status(421).send({
          code: 'unknown_host',
          detail: 'This server does not answer to that host name (set ALLOWED_HOSTS to add it)',
        });
      }
    }
    // A URL the router and the query parser let through in a form the docs refuse (414, 400).
    const bad = urlProblem(req.url);
    if (bad) return reply.status(bad.statusCode).send({ code: bad.code, detail: bad.detail, ...bad.extra });
    if (STATE_CHANGING.has(req.method) && isCrossSite(req)) {
      return reply
        .status(403)
        .send({ code: 'cross_origin', detail: 'A request from another site may not change anything here' });
    }
  });
}
