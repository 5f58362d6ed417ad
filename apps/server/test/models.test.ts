import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formWith } from './helpers/fixtures.js';
import { labScene, uploadLabelled, waitForModel } from './helpers/lab-scenes.js';
import { specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Lab models (api.md "Labels and lab models"): training through the queue on photos whose truth is known, the
 * Model object, rename, the portable file and its import, cancel, delete while a task uses it, tasks and results
 * that name the model, and every bad input. Runs on SQLite and, in the scale-out pass, on PostgreSQL + S3 with
 * the training on a pg-boss worker process.
 */
let server: TestServer;
let labelled: number[];
let healthyOnly: number[];
let model: any;

/** A training is waited for as a researcher waits (waitForModel's own bound), not the default 60 s. */
const TRAINING_WAIT_MS = 300_000;

const post = (path: string, body: unknown) => server.json(path, { method: 'POST', body });

beforeAll(async () => {
  server = await startTestServer({ WORKERS: '1' });
  labelled = [];
  for (let i = 1; i <= 4; i++) labelled.push(await uploadLabelled(server, `scene_${i}.png`, await labScene(i)));
  healthyOnly = [];
  for (let i = 1; i <= 2; i++)
    healthyOnly.push(await uploadLabelled(server, `healthy_${i}.png`, await labScene(100 + i, { lesions: 0 })));
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('training a lab model', { timeout: TRAINING_WAIT_MS }, () => {
  it('refuses bad bodies and too few labels, naming the problem', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(51) },
      { name: 'A', image_ids: ['x'] },
      { name: 'A', folder_ids: 3 },
    ]) {
      const res = await post('/api/models/', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(Object.keys(res.body.fields).length).toBeGreaterThan(0);
    }
    const unknown = await post('/api/models/', { name: 'A', image_ids: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_ids', ids: [999999] });
    // One labelled photo, and two without a lesion pixel: not enough.
    const one = await post('/api/models/', { name: 'A', image_ids: [labelled[0]] });
    expect(one.status).toBe(400);
    expect(one.body.code).toBe('not_enough_labels');
    const noLesion = await post('/api/models/', { name: 'A', image_ids: healthyOnly });
    expect(noLesion.status).toBe(400);
    expect(noLesion.body.code).toBe('not_enough_labels');
    expect(noLesion.body.detail).toMatch(/lesion/i);
    // An empty folder holds no labelled photo.
    const folder = await post('/api/folders/', { name: 'Empty for models' });
    const empty = await post('/api/models/', { name: 'A', folder_ids: [folder.body.id] });
    expect(empty.body.code).toBe('not_enough_labels');
    expect((await server.json('/api/models/')).body.count).toBe(0);
  });

  it('trains in the background (202 training, progress), then is ready with metrics and held-out overlays', async () => {
    const res = await post('/api/models/', { name: 'Blue cloth lab', image_ids: labelled });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      name: 'Blue cloth lab',
      status: 'training',
      image_count: 4,
      metrics: null,
      error_message: null,
    });
    expect(res.body.progress).toBeGreaterThanOrEqual(0);
    expect(res.body.labelled_pixels.lesion).toBeGreaterThan(0);
    expect(res.body.labelled_pixels.healthy).toBeGreaterThan(0);
    model = await waitForModel(server, res.body.id);
    expect(model.status, model.error_message).toBe('ready');
    expect(model.progress).toBe(100);
    expect(model.file_size).toBeGreaterThan(0);
    expect(model.metrics).not.toBeNull();
    expect(model.metrics.pixel_accuracy).toBeGreaterThan(0.8);
    expect(model.metrics.ppd_mae).toBeGreaterThanOrEqual(0);
    expect(model.heldout.length).toBeGreaterThan(0);
    for (const h of model.heldout) {
      expect(labelled).toContain(h.image_id);
      for (const url of [h.model_overlay_url, h.baseline_overlay_url]) {
        const img = await server.request(url);
        expect(img.status).toBe(200);
        expect(img.headers.get('content-type')).toBe('image/webp');
      }
    }
  });

  it('lists newest first, reads one, renames (bad names refused), 404 for an unknown id', async () => {
    const list = await server.json('/api/models/');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.body.results[0].id).toBe(model.id);
    const renamed = await server.json(`/api/models/${model.id}/`, { method: 'PATCH', body: { name: '  Lab  A ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Lab  A');
    model = renamed.body;
    for (const body of [{}, { name: '' }, { name: 'a\u0000b' }]) {
      const bad = await server.json(`/api/models/${model.id}/`, { method: 'PATCH', body });
      expect(bad.status).toBe(400);
      expect(bad.body.fields.name).toBeTruthy();
    }
    expect((await server.json('/api/models/999999/')).status).toBe(404);
    expect((await server.json('/api/models/abc/')).status).toBe(400);
    expect((await server.json('/api/models/999999/', { method: 'PATCH', body: { name: 'x' } })).status).toBe(404);
    // A ready model is not training: nothing to cancel.
    const cancel = await post(`/api/models/${model.id}/cancel/`, {});
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({ code: 'not_running', status: 'ready' });
  });
});

describe('scoring with a lab model', { timeout: TRAINING_WAIT_MS }, () => {
  it('a task with model_id names the model on the task, its results and the export', async () => {
    const res = await post('/api/tasks/prediction/', {
      name: 'With the lab model',
      image_ids: labelled,
      model_id: model.id,
      specimen_kind: 'root_slice',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      model_id: model.id,
      specimen_kind: 'root_slice',
      engine_label: `Lab model: ${model.name}`,
    });
    const { task } = await waitForTask(server.url, res.body.id);
    expect(task.status).toBe('completed');
    expect(task.engine_label).toBe(`Lab model: ${model.name}`);
    const results = (await server.json(`/api/predictions/?task_id=${task.id}`)).body.results;
    expect(results).toHaveLength(4);
    for (const r of results) expect(r.model).toEqual({ id: model.id, name: model.name });
    expect(results.filter((r: any) => r.ppd_value !== null).length).toBeGreaterThan(0);

    const csv = (await (await server.request(`/api/predictions/export/?task_id=${task.id}`)).text()).replace(
      /^\uFEFF/,
      '',
    );
    const [header, ...lines] = csv.trim().split('\r\n');
    const cols = header!.split(',');
    for (const line of lines) {
      const cells = line.split(',');
      expect(cells[cols.indexOf('model_name')]).toBe(model.name);
      expect(cells[cols.indexOf('specimen_kind')]).toBe('root_slice');
    }

    // The default engine's results have no model; the task's specimen kind defaults to auto.
    const plain = await post('/api/tasks/prediction/', { name: 'Default engine', image_ids: [labelled[0]] });
    expect(plain.body).toMatchObject({ model_id: null, specimen_kind: 'auto' });
    await waitForTask(server.url, plain.body.id);
    const plainResult = (await server.json(`/api/predictions/?task_id=${plain.body.id}`)).body.results[0];
    expect(plainResult.model).toBeNull();
  });

  it('refuses an unknown or unready model and a bad specimen kind, naming the field', async () => {
    for (const [body, field] of [
      [{ model_id: 999999 }, 'model_id'],
      [{ model_id: 'x' }, 'model_id'],
      [{ model_id: 0 }, 'model_id'],
      [{ specimen_kind: 'tree' }, 'specimen_kind'],
    ] as const) {
      const res = await post('/api/tasks/prediction/', { name: 'Bad', image_ids: labelled, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields[field]).toBeTruthy();
    }
    const single = await post('/api/predictions/predict_single/', { image_id: labelled[0], model_id: 999999 });
    expect(single.status).toBe(400);
    expect(single.body.fields.model_id).toBeTruthy();
  });

  it('predict_single and a reviewer-drawn box score with the model', async () => {
    const single = await post('/api/predictions/predict_single/', { image_id: labelled[1], model_id: model.id });
    expect(single.status).toBe(200);
    expect(single.body.model).toEqual({ id: model.id, name: model.name });
    expect(single.body.error_code).toBeNull();
    const added = await post(`/api/predictions/${single.body.id}/specimens/`, {
      box: [40, 20, 160, 140],
      model_id: model.id,
    });
    expect([201, 422]).toContain(added.status);
    const badModel = await post(`/api/predictions/${single.body.id}/specimens/`, {
      box: [40, 20, 160, 140],
      model_id: 999999,
    });
    expect(badModel.status).toBe(400);
    expect(badModel.body.fields.model_id).toBeTruthy();
  });
});

describe('the portable file', { timeout: TRAINING_WAIT_MS }, () => {
  it('downloads as an attachment and imports back as a ready model that scores', async () => {
    const res = await server.request(`/api/models/${model.id}/file/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Lab {2}A\.labmodel\.json"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(model.file_size);
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);

    const imported = await server.json('/api/models/import/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'from another lab.labmodel.json', data: bytes }]),
    });
    expect(imported.status).toBe(201);
    // Named as the file says (the name it was trained under), with the figures the file carries.
    expect(imported.body).toMatchObject({
      name: 'Blue cloth lab',
      status: 'ready',
      progress: 100,
      file_size: bytes.length,
      image_count: 4,
    });
    // (the file keeps 4 decimals)
    for (const [k, v] of Object.entries(model.metrics)) expect(imported.body.metrics[k]).toBeCloseTo(v as number, 3);
    expect(imported.body.id).not.toBe(model.id);
    expect((await server.json('/api/models/')).body.results[0].id).toBe(imported.body.id);
    const again = await server.request(`/api/models/${imported.body.id}/file/`);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

    const task = await post('/api/tasks/prediction/', {
      name: 'Imported',
      image_ids: [labelled[2]],
      model_id: imported.body.id,
    });
    expect(task.status).toBe(201);
    const { task: done } = await waitForTask(server.url, task.body.id);
    expect(done.status).toBe('completed');
  });

  it('refuses what is not a model file', async () => {
    for (const data of [Buffer.from('not a model'), Buffer.from('{"format":"cassavascope-lab-model"}')]) {
      const res = await server.json('/api/models/import/', {
        method: 'POST',
        body: formWith([{ field: 'file', name: 'x.labmodel.json', data }]),
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_model');
    }
    const noFile = await server.json('/api/models/import/', { method: 'POST', body: formWith([], { name: 'x' }) });
    expect(noFile.status).toBe(400);
    expect(noFile.body.code).toBe('invalid_model');
    const notMultipart = await post('/api/models/import/', { file: 'x' });
    expect(notMultipart.status).toBe(415);
    expect((await server.request('/api/models/999999/file/')).status).toBe(404);
  });
});

describe('cancel, restart and delete', { timeout: TRAINING_WAIT_MS }, () => {
  it('a training is cancelled at once and stays cancelled, without a file', async () => {
    const res = await post('/api/models/', { name: 'To cancel', image_ids: labelled });
    expect(res.status).toBe(202);
    const cancelled = await post(`/api/models/${res.body.id}/cancel/`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await post(`/api/models/${res.body.id}/cancel/`, {})).body.code).toBe('not_running');
    // Another training runs to its end after it: the cancelled one is still cancelled, with no file.
    const next = await post('/api/models/', { name: 'After the cancel', image_ids: labelled });
    expect((await waitForModel(server, next.body.id)).status).toBe('ready');
    const after = (await server.json(`/api/models/${res.body.id}/`)).body;
    expect(after).toMatchObject({ status: 'cancelled', file_size: null, metrics: null });
    expect((await server.request(`/api/models/${res.body.id}/file/`)).status).toBe(409);
    expect(
      (await post('/api/tasks/prediction/', { name: 'x', image_ids: labelled, model_id: res.body.id })).body.fields
        .model_id,
    ).toMatch(/cancelled/);
  });

  it('a training stopped by a shutdown of the queue resumes when it starts again', async () => {
    const res = await post('/api/models/', { name: 'Across a restart', image_ids: labelled });
    await server.ctx.queue.stop();
    // Embedded: this process's queue ran it, so it waits, still training. Scale-out: a worker process trains it.
    if (server.ctx.queue.kind === 'embedded')
      expect((await server.json(`/api/models/${res.body.id}/`)).body).toMatchObject({
        status: 'training',
        progress: 0,
      });
    await server.ctx.queue.start();
    expect((await waitForModel(server, res.body.id)).status).toBe('ready');
  });

  it('deleting a model a running task uses is refused; once the task stops, it goes and results keep its name', async () => {
    const many = await uploadFiles(server.url, await specimenFiles(24, { width: 360, height: 240, prefix: 'many' }));
    const task = await post('/api/tasks/prediction/', {
      name: 'Long run',
      split_count: 4,
      image_ids: [labelled[0], ...many.map((m) => m.id)],
      model_id: model.id,
    });
    expect(task.status).toBe(201);
    const refused = await server.json(`/api/models/${model.id}/`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'model_in_use', task_ids: [task.body.id] });
    await post(`/api/tasks/${task.body.id}/cancel/`, {});
    const deleted = await server.request(`/api/models/${model.id}/`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await server.json(`/api/models/${model.id}/`)).status).toBe(404);
    expect((await server.request(`/api/models/${model.id}/`, { method: 'DELETE' })).status).toBe(404);
    // The tasks and results that scored with it keep its name.
    const first = (await server.json('/api/tasks/?search=With the lab model')).body.results[0];
    expect(first.engine_label).toBe(`Lab model: ${model.name}`);
    const results = (await server.json(`/api/predictions/?task_id=${first.id}`)).body.results;
    for (const r of results) expect(r.model).toEqual({ id: model.id, name: model.name });
    // A deleted model cannot score a new task.
    const again = await post('/api/tasks/prediction/', { name: 'x', image_ids: labelled, model_id: model.id });
    expect(again.status).toBe(400);
    expect(again.body.fields.model_id).toBeTruthy();
  });
});
