import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from './helpers/fixtures.js';
import { createTestBucket } from './helpers/scale-out-env.js';
import { ADMIN, AUTH_ENV, signIn } from './helpers/sign-in.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 26, item 5: the headers a security review asks for. The page's Content-Security-Policy has no
 * 'unsafe-inline' (styles and scripts need this response's nonce, which the page's HTML carries), images only from
 * this server and the object store browsers are sent to; Permissions-Policy denies what the app never uses; HSTS
 * only over HTTPS. The page is the built web app (`npm run build`, as `npm test` does first).
 * The browser side (no violation on any screen, the page styled): apps/web/test/csp.test.ts.
 */
const WEB_INDEX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist/index.html');

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The page and what its headers and HTML say about the nonce. */
async function loadPage(server: TestServer, headers: Record<string, string> = {}) {
  const res = await server.request('/', { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  const html = await res.text();
  const csp = res.headers.get('content-security-policy');
  const styleNonces = (directives(csp).get('style-src') ?? []).filter((v) => v.startsWith("'nonce-"));
  expect(styleNonces).toHaveLength(1);
  const nonce = styleNonces[0]!.slice("'nonce-".length, -1);
  return {
    res,
    csp: csp!,
    nonce,
    html,
    metaNonce: /<meta property="csp-nonce" nonce="([^"]*)"/.exec(html)?.[1],
    tagNonces: [...html.matchAll(/<(script|link|style)\b[^>]*\snonce="([^"]*)"/g)].map((m) => m[2]),
  };
}

const FEATURES_DENIED = ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'display-capture'];

describe('the web page: a strict Content-Security-Policy with a nonce of its own', () => {
  let server: TestServer;
  beforeAll(async () => {
    if (!fs.existsSync(WEB_INDEX)) throw new Error(`${WEB_INDEX} is missing: run \`npm run build\` first`);
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('allows no inline style or script, no eval, and images only from this server, data: and blob:', async () => {
    const { csp } = await loadPage(server);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-hashes');
    const d = directives(csp);
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'", expect.stringMatching(/^'nonce-/)]);
    expect(d.get('script-src')).toEqual(["'self'", expect.stringMatching(/^'nonce-/)]);
    // No `http:` / `https:` (any site): the files are streamed by this server (no bucket browsers reach here).
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'self'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('a fresh nonce in every response, the one the HTML hands to its tags and to the app', async () => {
    const first = await loadPage(server);
    const second = await loadPage(server);
    for (const page of [first, second]) {
      expect(page.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(directives(page.csp).get('script-src')).toContain(`'nonce-${page.nonce}'`);
      expect(page.metaNonce).toBe(page.nonce);
      // The app's entry script (and its preloads) carry it; no placeholder of the build is left.
      expect(page.html).toMatch(/<script type="module"[^>]*\snonce="/);
      expect(new Set(page.tagNonces)).toEqual(new Set([page.nonce]));
      expect(page.html).not.toContain('__CSP_NONCE__');
    }
    expect(second.nonce).not.toBe(first.nonce);
    expect((await loadPage(server)).nonce).not.toBe(second.nonce);
  });

  it('the API reference page too: no inline script or style', async () => {
    const res = await server.request('/api/docs/');
    expect(res.status).toBe(200);
    const d = directives(res.headers.get('content-security-policy'));
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('Permissions-Policy denies what the app never uses, on the page and on the API', async () => {
    for (const p of ['/', '/api/status/', '/api/nothing-here/']) {
      const res = await server.request(p);
      const policy = res.headers.get('permissions-policy') ?? '';
      for (const feature of FEATURES_DENIED) expect(policy, `${p} ${feature}`).toContain(`${feature}=()`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('no HSTS over plain HTTP, nor when an X-Forwarded-Proto is not to be trusted (no TRUST_PROXY)', async () => {
    expect((await server.request('/')).headers.get('strict-transport-security')).toBeNull();
    for (const p of ['/', '/api/status/']) {
      const res = await server.request(p, { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });
});

describe('HSTS behind a TLS-terminating proxy (TRUST_PROXY)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a year, subdomains too, on every response the proxy forwarded from HTTPS; none from HTTP', async () => {
    for (const p of ['/', '/api/status/', '/media/originals/00/none.jpg']) {
      const https = await server.request(p, { headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers.get('strict-transport-security'), p).toBe('max-age=31536000; includeSubDomains');
      const http = await server.request(p, { headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers.get('strict-transport-security'), p).toBeNull();
      expect((await server.request(p)).headers.get('strict-transport-security'), p).toBeNull();
    }
  });
});

// A real S3 API (the CI's s3rver when TEST_S3_ENDPOINT is set, else one started here), as scale-out-s3-storage does.
describe('images from the object store: its origin, and only it, joins img-src', () => {
  let endpoint = process.env.TEST_S3_ENDPOINT;
  let ownS3: { close(): Promise<void> } | undefined;
  let s3Dir: string;
  beforeAll(async () => {
    s3Dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cassava-csp-s3-'));
    if (!endpoint) {
      const S3rver = createRequire(import.meta.url)('s3rver');
      const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
      const { port } = await s3.run();
      ownS3 = s3;
      endpoint = `http://127.0.0.1:${port}`;
    }
  });
  afterAll(async () => {
    await ownS3?.close();
    await fsp.rm(s3Dir, { recursive: true, force: true });
  });

  it('sign-in off: file URLs point at OSS_BASE_URL, whose origin img-src allows', async () => {
    const server = await startTestServer({
      ...(await createTestBucket(endpoint!)),
      OSS_BASE_URL: 'https://cdn.example.org/cassava/',
    });
    try {
      const form = new FormData();
      form.append('file', new Blob([await makeJpeg({ width: 40, height: 30 })], { type: 'image/jpeg' }), 'a.jpg');
      const image = (await server.json('/api/images/upload-files/', { method: 'POST', body: form })).body.uploaded[0];
      expect(new URL(image.thumbnail_url).origin).toBe('https://cdn.example.org');
      const { csp } = await loadPage(server);
      expect(directives(csp).get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://cdn.example.org']);
      expect(csp).not.toContain('unsafe-inline');
    } finally {
      await server.close();
    }
  });

  it('sign-in on: /media/ redirects to presigned URLs of the bucket, whose origin img-src allows', async () => {
    const server = await startTestServer({
      ...AUTH_ENV,
      ...(await createTestBucket(endpoint!)),
      OSS_BASE_URL: 'https://cdn.example.org/cassava/',
    });
    try {
      const cookie = await signIn(server, ADMIN.username, ADMIN.password);
      const form = new FormData();
      form.append('file', new Blob([await makeJpeg({ width: 40, height: 30 })], { type: 'image/jpeg' }), 'a.jpg');
      const image = (
        await server.json('/api/images/upload-files/', { method: 'POST', headers: { cookie }, body: form })
      ).body.uploaded[0];
      const redirect = await server.request(image.thumbnail_url, { headers: { cookie }, redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const bucketOrigin = new URL(redirect.headers.get('location')!).origin;
      // The page loads before sign-in, so its CSP cannot wait for a session.
      const { csp } = await loadPage(server);
      expect(directives(csp).get('img-src')).toEqual(["'self'", 'data:', 'blob:', bucketOrigin]);
      expect(bucketOrigin).toBe(new URL(endpoint!).origin);
    } finally {
      await server.close();
    }
  });
});
