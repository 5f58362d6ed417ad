import { imageSchema } from '@cassavascope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecimenJpeg, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 25 item 3: an image card showed a later run's value nobody reviewed where the researcher had reviewed
 * another run. The Image object keeps `ppdValue` as api.md says (the newest result's) and adds
 * `reviewed_result`: the newest reviewed result, with `latest` telling whether it is the newest result itself.
 */
let server: TestServer;
let imageId: number;

async function runTask(params: Record<string, unknown> = {}): Promise<number> {
  const task = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Run', image_ids: [imageId], ...params },
  });
  expect(task.status).toBe(201);
  await waitForTask(server.url, task.body.id);
  return task.body.id;
}

async function resultOf(taskId: number) {
  return (await server.json(`/api/predictions/?task_id=${taskId}`)).body.results[0] as {
    id: number;
    ppd_value: number;
    specimens: { index: number }[];
  };
}

async function image() {
  const listed = (await server.json('/api/images/')).body.results.find((i: { id: number }) => i.id === imageId);
  const one = (await server.json(`/api/images/${imageId}/`)).body;
  expect(one).toEqual(listed);
  return imageSchema.parse(one);
}

beforeAll(async () => {
  server = await startTestServer();
  [{ id: imageId }] = (await uploadFiles(server.url, [
    { name: 'tray.jpg', bytes: await makeSpecimenJpeg({ seed: 6 }) },
  ])) as [{ id: number }];
});
afterAll(async () => {
  await server.close();
});

describe('an image with a reviewed run and a later unreviewed one', () => {
  it('has no reviewed result until a reviewer changes one', async () => {
    expect((await image()).reviewed_result).toBeNull();
    const first = await runTask();
    expect((await image()).reviewed_result).toBeNull();
    // The reviewer scores every specimen of the first run 1.5: the newest result is reviewed.
    const result = await resultOf(first);
    for (const s of result.specimens)
      await server.json(`/api/predictions/${result.id}/specimens/${s.index}/`, { method: 'PATCH', body: { ppd: 1.5 } });
    const img = await image();
    expect(img.ppdValue).toBe(1.5);
    expect(img.reviewed_result).toEqual({
      id: result.id,
      task_id: first,
      ppd_value: 1.5,
      prediction: 'healthy',
      latest: true,
    });
  });

  it('keeps the reviewed value beside a later run nobody reviewed', async () => {
    const reviewed = (await image()).reviewed_result!;
    const second = await runTask({ threshold: 0.2 });
    const later = await resultOf(second);
    const img = await image();
    // ppdValue is the newest result's (api.md); the reviewed one is still there, no longer the latest.
    expect(img.ppdValue).toBe(later.ppd_value);
    expect(img.ppdValue).not.toBe(1.5);
    expect(img.reviewed_result).toEqual({ ...reviewed, latest: false });
  });
});
