import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { makeGreyJpeg, specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';

/** Tasks end to end against the real API, queue and engine, on generated specimen photos. */
let server: TestServer;
let folderId: number;
let sliceIds: number[];
let greyId: number;

beforeAll(async () => {
  server = await startTestServer({ WORKERS: '2' });
  const folder = await server.json('/api/folders/', { method: 'POST', body: { name: 'Trial' } });
  folderId = folder.body.id;
  const inFolder = await uploadFiles(server.url, await specimenFiles(4, { width: 360, height: 240 }), folderId);
  const loose = await uploadFiles(server.url, [{ name: 'grey.jpg', bytes: await makeGreyJpeg() }]);
  sliceIds = inFolder.map((i) => i.id);
  greyId = loose[0]!.id;
});
afterAll(async () => {
  await server?.close();
});

const basePayload = () => ({
  name: 'Trial run',
  type: 'prediction',
  algorithm: 'deeplabv3plus_resnet101',
  threshold: 0.5,
  min_size: 100,
  method: 'post',
  split_count: 2,
  morph_kernel_size: 5,
  morph_iterations: 1,
  use_tta: false,
  overlay_opacity: 0.3,
  single_model_type: 'resnet101',
});

describe('a prediction task, from creation to export', () => {
  let taskId: number;

  it('answers 201 at once with a running task over the de-duplicated union of images and folders', async () => {
    const res = await server.json('/api/tasks/prediction/', {
      method: 'POST',
      body: { ...basePayload(), image_ids: [greyId, sliceIds[0], greyId], folder_ids: [folderId] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Trial run',
      type: 'prediction',
      status: 'running',
      model_type: 'deeplabv3plus_resnet101',
      image_count: 5,
      completed_time: null,
      parameters: { threshold: 0.5, min_size: 100, method: 'post', split_count: 2, overlay_opacity: 0.3 },
    });
    expect(res.body.image_ids).toEqual([greyId, sliceIds[0], ...sliceIds.slice(1)]);
    taskId = res.body.id;
  });

  it('completes with per-image counts and statistics; the grey image fails with its error_code', async () => {
    const { task, progress } = await waitForTask(server.url, taskId);
    expect(task.status).toBe('completed');
    expect(task.processed_count).toBe(5);
    expect(task.failed_count).toBe(1);
    expect(task.progress).toBe(100);
    expect(task.completed_time).toMatch(/Z$/);
    expect(task.statistics.totalProcessed).toBe(5);
    expect(task.statistics.healthyCount + task.statistics.diseaseCount).toBe(4);
    expect(task.statistics.averageConfidence).toBeGreaterThan(0);
    expect(task.statistics.averageConfidence).toBeLessThanOrEqual(1);
    expect(task.statistics.processingTime).toBeGreaterThan(0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
  });

  it('lists one result per image with stored files; failed rows carry error_code and no PPD', async () => {
    const res = await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
    const byImage = new Map(res.body.results.map((r: any) => [r.image_id, r]));
    expect(byImage.size).toBe(5);
    const grey: any = byImage.get(greyId);
    expect(grey).toMatchObject({
      error_code: 'no_specimen_found',
      ppd_value: null,
      prediction: null,
      confidence: null,
      specimens: [],
      sub_ppd_values: [],
    });
    expect(grey.error_message).toBeTruthy();
    for (const id of sliceIds) {
      const r: any = byImage.get(id);
      expect(r.task_id).toBe(taskId);
      expect(r.error_code).toBeNull();
      expect(typeof r.ppd_value).toBe('number');
      // Every specimen the engine found (not a fixed three): one value, one cut and one prediction image each.
      const n = r.specimens.length;
      expect(n).toBeGreaterThanOrEqual(1);
      expect(r.sub_ppd_values).toHaveLength(n);
      expect(r.prediction).toBe(r.ppd_value < 4 ? 'healthy' : r.ppd_value < 7 ? 'mild' : 'severe');
      expect(r.oss_key).toBe(`results/${taskId}/${id}/overlay.webp`);
      const expectedKeys = Array.from({ length: n }, (_, i) => [`cut2_${i + 1}`, `pred_${i + 1}`]).flat();
      expect(Object.keys(r.vis_images).sort()).toEqual(expectedKeys.sort());
      expect(r.original_image_url).toMatch(/^\/media\//);
      // The original's thumbnail, for result cards (an addition: the overview's labels are unreadable at card size).
      expect(r.thumbnail_url).toMatch(/^\/media\/thumbs\/.+\.webp$/);
      for (const key of [r.oss_key, ...Object.values(r.vis_images).map((u: any) => u.replace(/^\/media\//, ''))]) {
        expect(await server.ctx.storage.exists(key)).toBe(true);
      }
      // The image shows its newest result.
      const image = await server.json(`/api/images/${id}/`);
      expect(image.body).toMatchObject({ hasPPD: true, ppdValue: r.ppd_value, lastPrediction: r.prediction });
    }
    const one = await server.json(`/api/predictions/${grey.id}/`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(grey);
    expect((await server.json('/api/predictions/999999/')).status).toBe(404);
  });

  it('gives every result its specimens: 1..N in order, kind, box inside the photo, values, images', async () => {
    const results = (await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`)).body.results;
    for (const r of results.filter((x: any) => x.error_code === null)) {
      const image = (await server.json(`/api/images/${r.image_id}/`)).body;
      expect(r.specimens.map((s: any) => s.index)).toEqual(r.specimens.map((_: any, i: number) => i + 1));
      for (const s of r.specimens) {
        expect(Object.keys(s).sort()).toEqual(
          [
            'index',
            'kind',
            'box',
            'ppd',
            'engine_ppd',
            'confidence',
            'needs_review',
            'excluded',
            'corrected',
            'source',
            'cut_url',
            'pred_url',
          ].sort(),
        );
        expect(['root_slice', 'leaf']).toContain(s.kind);
        const [x, y, w, h] = s.box;
        expect(s.box.every((v: number) => Number.isInteger(v))).toBe(true);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(w).toBeGreaterThan(0);
        expect(h).toBeGreaterThan(0);
        expect(x + w).toBeLessThanOrEqual(image.width);
        expect(y + h).toBeLessThanOrEqual(image.height);
        expect(s).toMatchObject({ excluded: false, corrected: false, source: 'engine', engine_ppd: s.ppd });
        expect(s.ppd).toBe(r.sub_ppd_values[s.index - 1]);
        if (s.confidence !== null) expect(s.confidence).toBeGreaterThanOrEqual(0);
        if (s.confidence !== null) expect(s.confidence).toBeLessThanOrEqual(1);
        expect(typeof s.needs_review).toBe('boolean');
        expect(s.cut_url).toBe(r.vis_images[`cut2_${s.index}`]);
        expect(s.pred_url).toBe(r.vis_images[`pred_${s.index}`]);
        for (const url of [s.cut_url, s.pred_url]) {
          const file = await server.request(url);
          expect(file.status).toBe(200);
          expect(file.headers.get('content-type')).toBe('image/webp');
        }
      }
      const mean = r.sub_ppd_values.reduce((a: number, b: number) => a + b, 0) / r.sub_ppd_values.length;
      expect(r.ppd_value).toBeCloseTo(mean, 2);
      expect(r).toMatchObject({
        needs_review: r.specimens.some((s: any) => s.needs_review),
        reviewed: false,
        engine_ppd_value: r.ppd_value,
      });
    }
  });

  it("keeps a failed image's row: no specimens, its reason, and the overview of what the engine saw when there is one", async () => {
    const grey = (await server.json(`/api/predictions/?task_id=${taskId}&image_id=${greyId}`)).body.results[0];
    expect(grey).toMatchObject({
      ppd_value: null,
      prediction: null,
      confidence: null,
      sub_ppd_values: [],
      specimens: [],
      vis_images: {},
      needs_review: false,
      reviewed: false,
      engine_ppd_value: null,
    });
    expect(grey.error_message.length).toBeGreaterThan(0);
    // The same bytes through the same engine: the row has an overview exactly when the engine drew one.
    const analysis = await server.ctx.engine.analyse(await makeGreyJpeg());
    expect(analysis.error_code).toBe(grey.error_code);
    const stored: string[] = [];
    for await (const key of server.ctx.storage.list(`results/${taskId}/${greyId}/`)) stored.push(key);
    if (analysis.images.overview) {
      expect(grey.oss_key).toBe(`results/${taskId}/${greyId}/overlay.webp`);
      const file = await server.request(grey.result_image_url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(stored).toEqual([grey.oss_key]);
    } else {
      expect(grey).toMatchObject({ oss_key: null, result_image_url: null });
      expect(stored).toEqual([]);
    }
  });

  it('filters by needs_review and reviewed (true/false), and refuses other values', async () => {
    const all = (await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`)).body;
    const flagged = await server.json(`/api/predictions/?task_id=${taskId}&needs_review=true&page_size=100`);
    const clear = await server.json(`/api/predictions/?task_id=${taskId}&needs_review=false&page_size=100`);
    expect(flagged.status).toBe(200);
    expect(flagged.body.results.every((r: any) => r.needs_review === true)).toBe(true);
    expect(clear.body.results.every((r: any) => r.needs_review === false)).toBe(true);
    expect(flagged.body.count).toBe(all.results.filter((r: any) => r.needs_review).length);
    expect(flagged.body.count + clear.body.count).toBe(all.count);
    // Nothing has been reviewed yet.
    expect((await server.json(`/api/predictions/?task_id=${taskId}&reviewed=true`)).body.count).toBe(0);
    expect((await server.json(`/api/predictions/?task_id=${taskId}&reviewed=false`)).body.count).toBe(all.count);
    for (const [bad, field] of [
      ['needs_review=yes', 'needs_review'],
      ['reviewed=1', 'reviewed'],
    ]) {
      const res = await server.json(`/api/predictions/?${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.fields[field]).toBeTruthy();
    }
  });

  it('filters by severity (never failed rows), image, name search, and orders by PPD', async () => {
    const all = (await server.json(`/api/predictions/?task_id=${taskId}&ordering=-ppd_value`)).body.results;
    const scored = all.filter((r: any) => r.ppd_value !== null);
    expect(all[all.length - 1].error_code).toBe('no_specimen_found');
    for (let i = 1; i < scored.length; i++) expect(scored[i].ppd_value).toBeLessThanOrEqual(scored[i - 1].ppd_value);
    let total = 0;
    for (const severity of ['healthy', 'mild', 'severe']) {
      const res = await server.json(`/api/predictions/?task_id=${taskId}&severity=${severity}`);
      expect(res.status).toBe(200);
      for (const r of res.body.results) expect(r.prediction).toBe(severity);
      total += res.body.count;
    }
    expect(total).toBe(4);
    const search = await server.json(`/api/predictions/?task_id=${taskId}&search=GREY`);
    expect(search.body.results.map((r: any) => r.image_id)).toEqual([greyId]);
    const byImage = await server.json(`/api/predictions/?image_id=${sliceIds[1]}`);
    expect(byImage.body.count).toBe(1);
    const paged = await server.json(`/api/predictions/?task_id=${taskId}&page_size=2&page=2&ordering=imageName`);
    expect(paged.body.results).toHaveLength(2);
    expect(paged.body.next).toContain('page=3');
    for (const bad of ['severity=bad', 'task_id=abc', 'ordering=size', 'page=0']) {
      const res = await server.json(`/api/predictions/?${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.fields).toBeTypeOf('object');
    }
  });

  it('summarises scored results with bands and a half-open histogram', async () => {
    const res = await server.json(`/api/predictions/summary/?task_id=${taskId}`);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.count).toBe(4);
    const values = (await server.json(`/api/predictions/?task_id=${taskId}&severity=healthy`)).body.results
      .concat((await server.json(`/api/predictions/?task_id=${taskId}&severity=mild`)).body.results)
      .concat((await server.json(`/api/predictions/?task_id=${taskId}&severity=severe`)).body.results)
      .map((r: any) => r.ppd_value);
    expect(s.max).toBe(Math.max(...values));
    expect(s.min).toBe(Math.min(...values));
    expect(s.average).toBeCloseTo(values.reduce((a: number, b: number) => a + b, 0) / values.length, 3);
    expect(s.bands.healthy + s.bands.mild + s.bands.severe).toBe(4);
    expect(s.bands.healthy).toBe(values.filter((v: number) => v < 4).length);
    expect(Object.keys(s.histogram).sort()).toEqual(['0-4', '4-7', '7-8', '8-10', '>=10'].sort());
    expect(Object.values(s.histogram).reduce((a: any, b: any) => a + b, 0)).toBe(4);
    const empty = await server.json('/api/predictions/summary/?task_id=987654');
    expect(empty.body).toMatchObject({ count: 0, average: null, max: null, min: null });
  });

  it('exports the task as a CSV attachment with a BOM and the columns of api.md', async () => {
    const res = await server.request(`/api/predictions/export/?task_id=${taskId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="prediction_results_${taskId}_${day}.csv"`,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n');
    expect(lines[0]).toBe(
      'image_name,ppd_value,confidence,prediction,processing_time,sub_ppd_values,task_id,error_code,engine_ppd_value,reviewed,specimen_count,model_name,specimen_kind,PPD|CO_334:0000077',
    );
    expect(lines).toHaveLength(6);
    expect(lines.find((l) => l.startsWith('grey.jpg'))).toMatch(
      /^grey\.jpg,,,,[\d.]+,,\d+,no_specimen_found,,false,0,,auto,$/,
    );
    // Each scored image: its engine value (= its value, nothing reviewed) and how many specimens it has.
    const api = (await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`)).body.results;
    for (const r of api.filter((x: any) => x.error_code === null)) {
      const cells = lines.find((l) => l.startsWith(`${r.imageName},`))!.split(',');
      expect(cells.slice(8)).toEqual([
        String(r.engine_ppd_value),
        'false',
        String(r.specimens.length),
        '',
        'auto',
        String(r.ppd_value),
      ]);
    }
    const all = await server.request('/api/predictions/export/');
    expect(all.headers.get('content-disposition')).toContain(`prediction_results_all_${day}.csv`);
  });

  it('exports one row per specimen with format=specimens, matching the API', async () => {
    const res = await server.request(`/api/predictions/export/?task_id=${taskId}&format=specimens`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n');
    expect(header).toBe(
      'image_name,task_id,index,kind,ppd,engine_ppd,confidence,excluded,corrected,needs_review,box,note,image_id,band',
    );
    const api = (await server.json(`/api/predictions/?task_id=${taskId}&page_size=100&ordering=created_time`)).body
      .results;
    const expected = api
      .sort((a: any, b: any) => a.id - b.id)
      .flatMap((r: any) =>
        r.specimens.map((s: any) =>
          [
            r.imageName,
            taskId,
            s.index,
            s.kind,
            s.ppd ?? '',
            s.engine_ppd ?? '',
            s.confidence ?? '',
            s.excluded,
            s.corrected,
            s.needs_review,
            s.box.join(' '),
            '',
            r.image_id,
            s.ppd === null ? '' : s.ppd >= 7 ? 'severe' : s.ppd >= 4 ? 'mild' : 'healthy',
          ].join(','),
        ),
      );
    expect(rows).toEqual(expected);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const bad = await server.json(`/api/predictions/export/?format=xlsx`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields.format).toBeTruthy();
  });

  it('cannot cancel a finished task', async () => {
    const res = await server.json(`/api/tasks/${taskId}/cancel/`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('not_running');
  });

  it('renames with the same name rule', async () => {
    const ok = await server.json(`/api/tasks/${taskId}/`, { method: 'PUT', body: { name: '  Renamed  ' } });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Renamed');
    const bad = await server.json(`/api/tasks/${taskId}/`, { method: 'PUT', body: { name: '   ' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.name).toBeTruthy();
    expect((await server.json(`/api/tasks/${taskId}/`)).body.name).toBe('Renamed');
  });

  it('deletes the task with its results and files, never the originals, and resets the images', async () => {
    const res = await server.request(`/api/tasks/${taskId}/`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect((await server.json(`/api/tasks/${taskId}/`)).status).toBe(404);
    expect((await server.json(`/api/predictions/?task_id=${taskId}`)).body.count).toBe(0);
    const left: string[] = [];
    for await (const key of server.ctx.storage.list(`results/${taskId}/`)) left.push(key);
    expect(left).toEqual([]);
    for (const id of sliceIds) {
      const image = await server.json(`/api/images/${id}/`);
      expect(image.status).toBe(200);
      expect(image.body).toMatchObject({ hasPPD: false, ppdValue: null, lastPrediction: null });
      expect((await server.request(image.body.image_url)).status).toBe(200);
    }
    expect((await server.request(`/api/tasks/${taskId}/`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('bad task payloads', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['blank name', { name: '   ' }, 'name'],
    ['name over 50 characters', { name: 'x'.repeat(51) }, 'name'],
    ['missing name', { name: undefined }, 'name'],
    ['name with a control character', { name: 'run\u0000 1' }, 'name'],
    ['threshold below range', { threshold: 0.05 }, 'threshold'],
    ['threshold above range', { threshold: 1.5 }, 'threshold'],
    ['threshold not a number', { threshold: 'high' }, 'threshold'],
    ['min_size below range', { min_size: 5 }, 'min_size'],
    ['min_size above range', { min_size: 1001 }, 'min_size'],
    ['even morph kernel', { morph_kernel_size: 4 }, 'morph_kernel_size'],
    ['morph kernel above range', { morph_kernel_size: 17 }, 'morph_kernel_size'],
    ['morph iterations above range', { morph_iterations: 11 }, 'morph_iterations'],
    ['overlay opacity above range', { overlay_opacity: 0.95 }, 'overlay_opacity'],
    ['unknown method', { method: 'magic' }, 'method'],
    ['use_tta not a boolean', { use_tta: 'yes' }, 'use_tta'],
    ['split_count zero', { split_count: 0 }, 'split_count'],
    ['image_ids not ids', { image_ids: ['a'] }, 'image_ids.0'],
    ['folder_ids not a list', { folder_ids: 3 }, 'folder_ids'],
    ['unknown type', { type: 'other' }, 'type'],
  ];
  it.each(cases)('%s: 400 with that field, nothing created', async (_label, patch, field) => {
    const before = (await server.json('/api/tasks/')).body.count;
    const res = await server.json('/api/tasks/prediction/', {
      method: 'POST',
      body: { ...basePayload(), image_ids: [sliceIds[0]], ...patch },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(res.body.fields[field]).toBeTruthy();
    expect((await server.json('/api/tasks/')).body.count).toBe(before);
  });

  it('unknown image or folder ids: 400 unknown_ids listing them', async () => {
    const res = await server.json('/api/tasks/', {
      method: 'POST',
      body: { ...basePayload(), image_ids: [sliceIds[0], 999_001], folder_ids: [999_002] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_ids', ids: [999_001, 999_002] });
  });

  it('no images at all: 400 no_images', async () => {
    for (const body of [{}, { image_ids: [] }, { image_ids: null, folder_ids: [] }]) {
      const res = await server.json('/api/tasks/prediction/', { method: 'POST', body: { ...basePayload(), ...body } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('no_images');
    }
  });

  it('malformed JSON and an empty JSON body: 400; nothing is created', async () => {
    const before = (await server.json('/api/tasks/')).body.count;
    for (const body of ['{"name": ', '', '  ']) {
      const res = await server.request('/api/tasks/prediction/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toMatch(/^invalid/);
    }
    expect((await server.json('/api/tasks/')).body.count).toBe(before);
  });

  it("the seed's one payload (type 'prediction') on a typed route makes a task of that route's type", async () => {
    const typed = await server.json('/api/tasks/second-segmentation/', {
      method: 'POST',
      body: { ...basePayload(), image_ids: [sliceIds[0]] },
    });
    expect(typed.status).toBe(201);
    expect(typed.body.type).toBe('second_segmentation');
    const { task } = await waitForTask(server.url, typed.body.id);
    expect(task.status).toBe('completed');
    expect(task.engine_label).toBe('Colour segmentation (CIELAB)');
  });

  it('bad ids in the path: 400; unknown: 404', async () => {
    expect((await server.json('/api/tasks/abc/')).status).toBe(400);
    expect((await server.json('/api/tasks/424242/')).status).toBe(404);
    expect((await server.json('/api/tasks/424242/cancel/', { method: 'POST' })).status).toBe(404);
  });
});

describe('task list', () => {
  it('filters by status and by name, newest first; a bad status is a 400', async () => {
    const a = await server.json('/api/tasks/', {
      method: 'POST',
      body: { ...basePayload(), name: 'Alpha cassava', image_ids: [sliceIds[0]] },
    });
    const b = await server.json('/api/tasks/', {
      method: 'POST',
      body: { ...basePayload(), name: 'Beta', image_ids: [sliceIds[1]] },
    });
    expect(a.status).toBe(201);
    expect(b.body.type).toBe('prediction');
    await waitForTask(server.url, a.body.id);
    await waitForTask(server.url, b.body.id);
    const list = await server.json('/api/tasks/');
    const ids = list.body.results.map((t: any) => t.id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    const found = await server.json('/api/tasks/?search=CASSAVA');
    expect(found.body.results.map((t: any) => t.id)).toEqual([a.body.id]);
    const completed = await server.json('/api/tasks/?status=completed');
    expect(completed.body.results.every((t: any) => t.status === 'completed')).toBe(true);
    expect((await server.json('/api/tasks/?status=done')).status).toBe(400);
  });

  it('status_counts sums up every task by status whatever the filter and page', async () => {
    const all = (await server.json('/api/tasks/?page_size=1000')).body;
    const byStatus = { running: 0, completed: 0, failed: 0, cancelled: 0 } as Record<string, number>;
    for (const t of all.results) byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
    expect(all.status_counts).toEqual(byStatus);
    expect(byStatus.completed).toBeGreaterThanOrEqual(2);
    const narrowed = (await server.json('/api/tasks/?search=alpha&page_size=1')).body;
    expect(narrowed.results).toHaveLength(1);
    expect(narrowed.status_counts).toEqual(byStatus);
  });
});

describe('segmentation tasks and predict_single', () => {
  let batchTaskId: number;

  it("first segmentation stores every specimen's cut only; second segmentation scores PPD", async () => {
    const first = await server.json('/api/tasks/first-segmentation/', {
      method: 'POST',
      body: { ...basePayload(), type: undefined, image_ids: [sliceIds[2]] },
    });
    expect(first.status).toBe(201);
    expect(first.body.type).toBe('first_segmentation');
    expect((await waitForTask(server.url, first.body.id)).task.status).toBe('completed');
    const cut = (await server.json(`/api/predictions/?task_id=${first.body.id}`)).body.results[0];
    expect(cut).toMatchObject({
      ppd_value: null,
      error_code: null,
      prediction: null,
      sub_ppd_values: [],
      engine_ppd_value: null,
    });
    expect(cut.specimens.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(cut.vis_images).sort()).toEqual(cut.specimens.map((s: any) => `cut2_${s.index}`).sort());
    for (const s of cut.specimens) {
      expect(s).toMatchObject({
        ppd: null,
        engine_ppd: null,
        pred_url: null,
        cut_url: cut.vis_images[`cut2_${s.index}`],
      });
      expect(s.box).toHaveLength(4);
    }

    const second = await server.json('/api/tasks/second-segmentation/', {
      method: 'POST',
      body: { ...basePayload(), type: 'second_segmentation', image_ids: [sliceIds[2]] },
    });
    expect(second.body.type).toBe('second_segmentation');
    expect((await waitForTask(server.url, second.body.id)).task.status).toBe('completed');
    const scored = (await server.json(`/api/predictions/?task_id=${second.body.id}`)).body.results[0];
    expect(typeof scored.ppd_value).toBe('number');
  });

  it('predict_single scores one image now and records it under a one-image task', async () => {
    const res = await server.json('/api/predictions/predict_single/', {
      method: 'POST',
      body: { image_id: sliceIds[3], threshold: 0.5 },
    });
    expect(res.status).toBe(200);
    expect(res.body.image_id).toBe(sliceIds[3]);
    expect(typeof res.body.ppd_value).toBe('number');
    const task = await server.json(`/api/tasks/${res.body.task_id}/`);
    expect(task.body).toMatchObject({ status: 'completed', image_count: 1, processed_count: 1 });
    const image = await server.json(`/api/images/${sliceIds[3]}/`);
    expect(image.body.ppdValue).toBe(res.body.ppd_value);

    const grey = await server.json('/api/predictions/predict_single/', { method: 'POST', body: { image_id: greyId } });
    expect(grey.status).toBe(200);
    expect(grey.body.error_code).toBe('no_specimen_found');
    const missing = await server.json('/api/predictions/predict_single/', {
      method: 'POST',
      body: { image_id: 999_999 },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('unknown_ids');
    const bad = await server.json('/api/predictions/predict_single/', { method: 'POST', body: { image_id: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.image_id).toBeTruthy();
  });

  it('predict_batch creates a task like /tasks/prediction/, with a default name', async () => {
    const res = await server.json('/api/predictions/predict_batch/', {
      method: 'POST',
      body: { folder_ids: [folderId] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'running', image_count: 4, type: 'prediction' });
    expect(res.body.name).toMatch(/^Prediction \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect((await waitForTask(server.url, res.body.id)).task.status).toBe('completed');
    batchTaskId = res.body.id;
  });

  it('deleting the newest task of an image falls back to its previous result', async () => {
    const image = sliceIds[3]!;
    const results = (await server.json(`/api/predictions/?image_id=${image}&ordering=-created_time`)).body.results;
    expect(results[0].task_id).toBe(batchTaskId);
    const previous = results.find((r: any) => r.task_id !== batchTaskId && r.ppd_value !== null);
    expect((await server.request(`/api/tasks/${batchTaskId}/`, { method: 'DELETE' })).status).toBe(204);
    const after = (await server.json(`/api/images/${image}/`)).body;
    expect(after).toMatchObject({ hasPPD: true, ppdValue: previous.ppd_value, lastPrediction: previous.prediction });
  });
});
