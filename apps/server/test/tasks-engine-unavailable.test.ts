import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';

/** A model that cannot be loaded: the server still serves, and tasks fail with the reason. */
let server: TestServer;
let ids: number[];

beforeAll(async () => {
  server = await startTestServer({ MODEL_PATH: '/nonexistent/deeplabv3plus.onnx' });
  ids = (await uploadFiles(server.url, await specimenFiles(2, { width: 240, height: 160 }))).map((i) => i.id);
});
afterAll(async () => {
  await server?.close();
});

describe('when the engine could not start', () => {
  it('a task ends failed with the reason in error_message', async () => {
    const res = await server.json('/api/tasks/prediction/', {
      method: 'POST',
      body: { name: 'No engine', image_ids: ids },
    });
    expect(res.status).toBe(201);
    const { task } = await waitForTask(server.url, res.body.id);
    expect(task.status).toBe('failed');
    expect(task.error_message).toMatch(/engine could not start/i);
    expect(task.completed_time).toMatch(/Z$/);
  });

  it('predict_single answers 503 engine_unavailable; status names the engine as unavailable', async () => {
    const res = await server.json('/api/predictions/predict_single/', { method: 'POST', body: { image_id: ids[0] } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('engine_unavailable');
    const status = await server.json('/api/status/');
    expect(status.body.engine).toMatchObject({ name: 'unavailable', kind: 'onnx' });
  });
});
