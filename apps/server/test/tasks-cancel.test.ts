import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';

/** Cancel, delete while running, and an image deleted while its task runs. */
let server: TestServer;
let ids: number[];

beforeAll(async () => {
  server = await startTestServer({ WORKERS: '1' });
  ids = (await uploadFiles(server.url, await specimenFiles(24, { width: 360, height: 240 }))).map((i) => i.id);
});
afterAll(async () => {
  await server?.close();
});

const create = async (imageIds: number[], name = 'Batch') => {
  const res = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name, split_count: 4, image_ids: imageIds },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
};

/** Polls until the task has processed at least `n` images (it is then mid-way). */
async function waitProcessed(taskId: number, n: number) {
  for (;;) {
    const t = (await server.json(`/api/tasks/${taskId}/`)).body;
    if (t.processed_count >= n || t.status !== 'running') return t;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every file under results/<task>/ belongs to a result row, and every row's files exist. */
async function expectNoOrphans(taskId: number) {
  const rows = (await server.json(`/api/predictions/?task_id=${taskId}&page_size=1000`)).body.results;
  const referenced = new Set<string>();
  for (const r of rows) {
    if (r.oss_key) referenced.add(r.oss_key);
    for (const url of Object.values(r.vis_images) as string[]) referenced.add(url.replace(/^\/media\//, ''));
  }
  const stored = new Set<string>();
  for await (const key of server.ctx.storage.list(`results/${taskId}/`)) stored.add(key);
  expect([...stored].sort()).toEqual([...referenced].sort());
}

describe('cancel', () => {
  it('stops a running task, keeps the results so far, and nothing is added afterwards', async () => {
    const taskId = await create(ids);
    await waitProcessed(taskId, 2);
    const res = await server.json(`/api/tasks/${taskId}/cancel/`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.completed_time).toMatch(/Z$/);
    // Stopping the queue waits for whatever image was in flight, so the state below is final.
    await server.ctx.queue.stop();
    await server.ctx.queue.start();
    const task = (await server.json(`/api/tasks/${taskId}/`)).body;
    expect(task.status).toBe('cancelled');
    expect(task.processed_count).toBeGreaterThanOrEqual(2);
    expect(task.processed_count).toBeLessThan(24);
    const results = (await server.json(`/api/predictions/?task_id=${taskId}`)).body;
    expect(results.count).toBe(task.processed_count);
    await expectNoOrphans(taskId);
    const again = await server.json(`/api/tasks/${taskId}/cancel/`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('not_running');
  });
});

describe('delete while running', () => {
  it('cancels, removes the task, its results and files; the originals stay', async () => {
    const taskId = await create(ids.slice(0, 12), 'To delete');
    await waitProcessed(taskId, 1);
    expect((await server.request(`/api/tasks/${taskId}/`, { method: 'DELETE' })).status).toBe(204);
    await server.ctx.queue.stop();
    await server.ctx.queue.start();
    expect((await server.json(`/api/tasks/${taskId}/`)).status).toBe(404);
    expect((await server.json(`/api/predictions/?task_id=${taskId}`)).body.count).toBe(0);
    const left: string[] = [];
    for await (const key of server.ctx.storage.list(`results/${taskId}/`)) left.push(key);
    expect(left).toEqual([]);
    const images = await server.json('/api/images/?page_size=100');
    expect(images.body.count).toBe(24);
  });
});

describe('queue order', () => {
  // Both queues: the embedded one alternates tasks; pg-boss gets the k-th job of each task priority -k.
  it('tasks take turns: a small task created behind a big one does not wait for all of it', async () => {
    await server.ctx.queue.stop();
    const big = (
      await server.json('/api/tasks/prediction/', {
        method: 'POST',
        body: { name: 'Big', split_count: 1, image_ids: ids.slice(0, 6) },
      })
    ).body.id;
    const small = await create([ids[6]!], 'Small');
    await server.ctx.queue.start();
    const { task } = await waitForTask(server.url, small);
    expect(task.status).toBe('completed');
    // One job runs at a time here (WORKERS=1; one worker process in the scale-out run): the big task's
    // first job(s), then the small task's, before the rest of the big one.
    const bigNow = (await server.json(`/api/tasks/${big}/`)).body;
    expect(bigNow.status).toBe('running');
    expect(bigNow.processed_count).toBeLessThan(6);
    await waitForTask(server.url, big);
  });
});

describe('an image deleted while its task runs', () => {
  it('gets a result with error_code image_deleted and the task still completes', async () => {
    // Hold the queue so the deletion surely happens after creation and before scoring.
    await server.ctx.queue.stop();
    const [keep, gone] = [ids[20]!, ids[21]!];
    const taskId = await create([keep, gone], 'Deletion');
    expect((await server.request(`/api/images/${gone}/`, { method: 'DELETE' })).status).toBe(204);
    await server.ctx.queue.start();
    const { task } = await waitForTask(server.url, taskId);
    expect(task).toMatchObject({ status: 'completed', processed_count: 2, failed_count: 1 });
    const rows = (await server.json(`/api/predictions/?task_id=${taskId}`)).body.results;
    const byImage = new Map(rows.map((r: any) => [r.image_id, r]));
    expect(byImage.get(gone)).toMatchObject({ error_code: 'image_deleted', ppd_value: null, original_image_url: null });
    expect((byImage.get(keep) as any).error_code).toBeNull();
    await expectNoOrphans(taskId);
  });

  it('deleting an image removes its results and their files', async () => {
    const img = ids[22]!;
    const taskId = await create([img], 'Image delete');
    await waitForTask(server.url, taskId);
    const before = (await server.json(`/api/predictions/?image_id=${img}`)).body.results[0];
    expect(before.oss_key).toBeTruthy();
    expect((await server.request(`/api/images/${img}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.json(`/api/predictions/?image_id=${img}`)).body.count).toBe(0);
    expect(await server.ctx.storage.exists(before.oss_key)).toBe(false);
  });

  it('a task whose every image fails ends failed with an error message', async () => {
    await server.ctx.queue.stop();
    const taskId = await create([ids[23]!], 'All gone');
    expect((await server.request(`/api/images/${ids[23]}/`, { method: 'DELETE' })).status).toBe(204);
    await server.ctx.queue.start();
    const { task } = await waitForTask(server.url, taskId);
    expect(task.status).toBe('failed');
    expect(task.error_message).toBeTruthy();
    expect(task.completed_time).toMatch(/Z$/);
  });
});
