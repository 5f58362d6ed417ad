import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/status/', () => {
  it('reports real counts, the engine, the backends and a live check of each endpoint', async () => {
    const empty = await server.json('/api/status/');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ status: 'online', image_count: 0, task_count: 0 });

    const images = await uploadFiles(server.url, await specimenFiles(2, { width: 240, height: 160 }));
    const task = await server.json('/api/tasks/', {
      method: 'POST',
      body: { name: 'One', image_ids: [images[0]!.id] },
    });
    await waitForTask(server.url, task.body.id);

    const res = await server.json('/api/status');
    expect(res.status).toBe(200);
    const s = res.body;
    // sqlite/local/embedded by default; postgres/s3/pg-boss in the scale-out run of the suite.
    const scaledOut = Boolean(process.env.TEST_DATABASE_URL);
    expect(s).toMatchObject({
      status: 'online',
      image_count: 2,
      task_count: 1,
      database: scaledOut ? 'postgres' : 'sqlite',
      storage: process.env.TEST_S3_ENDPOINT ? 's3' : 'local',
      queue: scaledOut ? 'pg-boss' : 'embedded',
    });
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isInteger(s.uptime_seconds)).toBe(true);
    expect(Math.abs(Date.parse(s.server_time) - Date.now())).toBeLessThan(60_000);
    expect(s.engine.kind).toBe('colour');
    expect(s.engine.name).toBeTruthy();
    // Without a model the colour engine scores, and is never labelled as the DeepLabV3+ model.
    expect(s.engine.label).not.toMatch(/DeepLab/i);
    expect(s.endpoints.map((e: any) => e.path)).toEqual([
      '/api/images/',
      '/api/folders/',
      '/api/predictions/',
      '/api/tasks/',
      '/api/status/',
    ]);
    for (const e of s.endpoints) expect(e.ok).toBe(true);
  });
});
