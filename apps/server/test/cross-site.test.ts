import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { storedKeys } from './helpers/data-dir.js';
import { makeJpeg } from './helpers/fixtures.js';
import { rawRequest } from './helpers/raw-request.js';
import { specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * api.md "Security": a page of another site cannot change the library (403 cross_origin), a DNS-rebinding
 * page cannot reach it at all (421 unknown_host), and the web app on its own origin works as before.
 */
let server: TestServer;
let port: string;
let imageId: number;

const EVIL = 'https://evil.example';

/** A multipart body as a browser's form POST sends it: the overwrite attack of issue 13. */
async function overwriteForm(name: string): Promise<{ body: Buffer; type: string }> {
  const boundary = '----WebKitFormBoundaryEVIL';
  const other = await makeJpeg({ width: 80, height: 60, seed: 99 });
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="duplicate_action"\r\n\r\noverwrite\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    other,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** Everything a test could see changed: images with their bytes, folders, tasks and stored blobs. */
async function snapshot() {
  const images = (await server.json('/api/images/?page_size=1000')).body.results.map((i: any) => [
    i.id,
    i.name,
    i.sha256,
  ]);
  const folders = (await server.json('/api/folders/')).body;
  const tasks = (await server.json('/api/tasks/')).body;
  return { images, folders, tasks, blobs: await storedKeys(server) };
}

beforeAll(async () => {
  server = await startTestServer();
  port = new URL(server.url).port;
  const [image] = await uploadFiles(server.url, await specimenFiles(1, { width: 240, height: 160 }));
  imageId = image!.id;
});
afterAll(async () => {
  await server?.close();
});

describe('cross-site requests change nothing', () => {
  it('a form POST from another site cannot overwrite an image (403 cross_origin)', async () => {
    const before = await snapshot();
    const name = before.images[0][1] as string;
    const { body, type } = await overwriteForm(name);
    const res = await rawRequest(
      server.url,
      'POST',
      '/api/images/upload-files/',
      { 'content-type': type, origin: EVIL, 'sec-fetch-site': 'cross-site' },
      body,
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'cross_origin' });
    expect(await snapshot()).toEqual(before);
  });

  it('a text/plain POST from another site cannot cancel a running task', async () => {
    const files = await specimenFiles(4, { width: 240, height: 160, prefix: 'cancel' });
    const ids = (await uploadFiles(server.url, files)).map((i) => i.id);
    const created = await server.json('/api/tasks/prediction/', {
      method: 'POST',
      body: { name: 'attacked', image_ids: ids, split_count: 2 },
    });
    expect(created.status).toBe(201);
    const res = await rawRequest(
      server.url,
      'POST',
      `/api/tasks/${created.body.id}/cancel/`,
      { 'content-type': 'text/plain;charset=UTF-8', origin: EVIL },
      '{}',
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe('cross_origin');
    const { task } = await waitForTask(server.url, created.body.id);
    // It ran to its end (whatever the engine made of the pictures): the cancel changed nothing.
    expect(task.status).not.toBe('cancelled');
  });

  it.each([
    ['a foreign Origin', { origin: EVIL }],
    ['Origin: null (sandboxed frame, file: page)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign Origin on a same-host name with another scheme', { origin: `ftp://127.0.0.1:${'PORT'}` }],
  ])('DELETE, PUT and POST with %s are 403 and change nothing', async (_label, raw) => {
    const headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.replace('PORT', port)]));
    const before = await snapshot();
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: `f${Math.random()}` } })).body;
    const mid = await snapshot();
    const json = { ...headers, 'content-type': 'application/json' };
    for (const [method, p, body] of [
      ['DELETE', `/api/images/${imageId}/`, undefined],
      ['DELETE', `/api/folders/${folder.id}/`, undefined],
      ['PUT', `/api/folders/${folder.id}/`, '{"name":"renamed"}'],
      ['POST', '/api/folders/', '{"name":"planted"}'],
      ['POST', `/api/folders/${folder.id}/add_images/`, JSON.stringify({ image_ids: [imageId] })],
    ] as const) {
      const res = await rawRequest(server.url, method, p, body === undefined ? headers : json, body);
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'cross_origin' });
    }
    expect(await snapshot()).toEqual(mid);
    await server.json(`/api/folders/${folder.id}/`, { method: 'DELETE' });
    expect(await snapshot()).toEqual(before);
  });

  it('reads from another site are not refused (the browser keeps their answers from the page)', async () => {
    const res = await rawRequest(server.url, 'GET', '/api/images/', { origin: EVIL, 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the app on its own origin and scripts still work', () => {
  it.each([
    [
      'the same origin (the built app served by the server)',
      () => ({ origin: server.url, 'sec-fetch-site': 'same-origin' }),
    ],
    ['localhost under its own name', () => ({ origin: `http://localhost:${port}`, host: `localhost:${port}` })],
    [
      'the Vite dev server on another port of localhost (its proxy keeps the Origin)',
      () => ({ origin: 'http://localhost:5173', host: 'localhost:5173' }),
    ],
    ['no Origin at all (curl, scripts, the CLI)', () => ({})],
    ['Sec-Fetch-Site: same-origin without Origin', () => ({ 'sec-fetch-site': 'same-origin' })],
    ['Sec-Fetch-Site: none (typed into the address bar)', () => ({ 'sec-fetch-site': 'none' })],
  ])('a write from %s passes', async (_label, headers) => {
    const name = `own-${Math.random()}`;
    const res = await rawRequest(
      server.url,
      'POST',
      '/api/folders/',
      { ...headers(), 'content-type': 'application/json' },
      JSON.stringify({ name }),
    );
    expect(res.status).toBe(201);
    const id = JSON.parse(res.body).id;
    const del = await rawRequest(server.url, 'DELETE', `/api/folders/${id}/`, headers());
    expect(del.status).toBe(204);
  });
});

describe('unknown Host names (DNS rebinding)', () => {
  it.each(['evil.example', `evil.example:${'PORT'}`, 'localhost.evil.example', '127.0.0.1.nip.io', 'attacker'])(
    'Host: %s is 421 unknown_host for reads, writes, media and the web app, and changes nothing',
    async (hostTemplate) => {
      const host = hostTemplate.replace('PORT', port);
      const before = await snapshot();
      const image = (await server.json(`/api/images/${imageId}/`)).body;
      for (const [method, p] of [
        ['GET', '/api/images/'],
        ['GET', '/api/status/'],
        ['GET', image.image_url],
        ['GET', '/'],
        ['DELETE', `/api/images/${imageId}/`],
        ['POST', `/api/images/upload-files/`],
      ] as const) {
        const res = await rawRequest(server.url, method, p, { host });
        expect(res.status, `${method} ${p}`).toBe(421);
        expect(JSON.parse(res.body)).toMatchObject({ code: 'unknown_host' });
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('Host: %s:port is answered', async (name) => {
    const res = await rawRequest(server.url, 'GET', '/api/status/', { host: `${name}:${port}` });
    expect(res.status).toBe(200);
  });

  it('HOST=0.0.0.0 answers the machine addresses and name; ALLOWED_HOSTS=* answers any; a bad list stops the start', () => {
    const lan = loadConfig({ HOST: '0.0.0.0' }).allowedHosts!;
    expect(lan.has(os.hostname().toLowerCase())).toBe(true);
    for (const addresses of Object.values(os.networkInterfaces()))
      for (const a of addresses ?? []) expect(lan.has(a.address.toLowerCase())).toBe(true);
    expect(lan.has('evil.example')).toBe(false);
    expect(loadConfig({ HOST: '127.0.0.1' }).allowedHosts).toEqual(new Set(['localhost', '127.0.0.1', '::1']));
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).toBeNull();
    expect(() => loadConfig({ ALLOWED_HOSTS: 'a.example/x' })).toThrow(/ALLOWED_HOSTS/);
  });

  it('ALLOWED_HOSTS names the hosts a proxy forwards', async () => {
    const lab = await startTestServer({ ALLOWED_HOSTS: 'lab.example.org, cassava.local' });
    try {
      expect((await rawRequest(lab.url, 'GET', '/api/status/', { host: 'lab.example.org' })).status).toBe(200);
      expect((await rawRequest(lab.url, 'GET', '/api/status/', { host: 'cassava.local:8443' })).status).toBe(200);
      expect((await rawRequest(lab.url, 'GET', '/api/status/', { host: 'evil.example' })).status).toBe(421);
      const post = await rawRequest(
        lab.url,
        'POST',
        '/api/folders/',
        { host: 'lab.example.org', origin: 'https://lab.example.org', 'content-type': 'application/json' },
        '{"name":"behind a proxy"}',
      );
      expect(post.status).toBe(201);
    } finally {
      await lab.close();
    }
  });
});

describe('headers on every response', () => {
  it('Referrer-Policy: same-origin on JSON, errors, media, refusals and the web app', async () => {
    const image = (await server.json(`/api/images/${imageId}/`)).body;
    for (const [p, headers] of [
      ['/api/images/', {}],
      ['/api/images/999999/', {}],
      ['/api/images/%zz/', {}],
      [image.thumbnail_url, {}],
      ['/', {}],
      ['/api/status/', { host: 'evil.example' }],
    ] as const) {
      const res = await rawRequest(server.url, 'GET', p, headers);
      expect(res.headers['referrer-policy'], p).toBe('same-origin');
      expect(res.headers['x-content-type-options'], p).toBe('nosniff');
    }
    const refused = await rawRequest(server.url, 'DELETE', `/api/images/${imageId}/`, { origin: EVIL });
    expect(refused.headers['referrer-policy']).toBe('same-origin');
  });
  it('X-CassavaScope-Contract: 1 on /api answers (bodies, errors, writes), none on media or the web app', async () => {
    const image = (await server.json(`/api/images/${imageId}/`)).body;
    for (const p of ['/api/images/', '/api/images/999999/', '/api/status/', '/api/openapi.json']) {
      expect((await rawRequest(server.url, 'GET', p)).headers['x-cassavascope-contract'], p).toBe('1');
    }
    const created = await rawRequest(
      server.url,
      'POST',
      '/api/folders/',
      { 'content-type': 'application/json' },
      '{"name":"contract header"}',
    );
    expect(created.status).toBe(201);
    expect(created.headers['x-cassavascope-contract']).toBe('1');
    for (const p of [image.thumbnail_url, '/']) {
      expect((await rawRequest(server.url, 'GET', p)).headers['x-cassavascope-contract'], p).toBeUndefined();
    }
  });
});
