import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebFiles } from '../src/web/web-files.js';

// The web build's files, served by exact name from a real folder (a stand-in for apps/web/dist).
describe('web build files', () => {
  let root: string;
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-web-files-'));
    await fs.mkdir(path.join(root, 'assets'));
    await fs.writeFile(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1);');
    await fs.writeFile(path.join(root, 'favicon.svg'), '<svg/>');
    await fs.writeFile(path.join(root, '.env'), 'SECRET=1');
    await fs.writeFile(path.join(os.tmpdir(), 'cassava-outside.txt'), 'outside');
    const files = new WebFiles(root);
    app = Fastify();
    app.setNotFoundHandler((_req, reply) => reply.status(404).send({ code: 'not_found', detail: 'No route' }));
    app.get('/*', (req, reply) => files.send(req, reply, (req.params as { '*': string })['*']));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    await fs.rm(root, { recursive: true, force: true });
    await fs.rm(path.join(os.tmpdir(), 'cassava-outside.txt'), { force: true });
  });

  it('serves a hashed asset with its type, length and immutable caching, and 304 on its ETag', async () => {
    const res = await fetch(`${url}/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('console.log(1);');
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('15');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await fetch(`${url}/assets/index-abc123.js`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('serves other files without the immutable caching', async () => {
    const res = await fetch(`${url}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBeNull();
  });

  it('finds a file added after the first request (a rebuilt web app)', async () => {
    await fs.writeFile(path.join(root, 'assets', 'late-def456.css'), 'a{}');
    const res = await fetch(`${url}/assets/late-def456.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for missing files, hidden files and paths leaving the folder', async () => {
    for (const p of ['/assets/nope.js', '/.env', '/assets/..%2f..%2fcassava-outside.txt', '/../cassava-outside.txt']) {
      const res = await fetch(url + p);
      expect(res.status, p).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found' });
    }
  });
});
