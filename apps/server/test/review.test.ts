import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { makeGreyJpeg, specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';

/**
 * Review of results (api.md, Predictions; issue 12) against the real API, queue, engine, database and
 * storage: every call, every bad input (a clear 4xx and nothing changed), and two reviewers at once.
 */
let server: TestServer;
let taskId: number;
let imageIds: number[];
let greyId: number;

const mean2 = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;

async function resultOf(imageId: number) {
  const list = await server.json(`/api/predictions/?task_id=${taskId}&image_id=${imageId}`);
  expect(list.status).toBe(200);
  return list.body.results[0];
}

async function storedKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of server.ctx.storage.list(prefix)) keys.push(k);
  return keys.sort();
}

/** The state a refused request must leave alone: the result, its history, the image, the summary, the files. */
async function snapshot(resultId: number, imageId: number) {
  const [result, history, image, summary] = await Promise.all([
    server.json(`/api/predictions/${resultId}/`),
    server.json(`/api/predictions/${resultId}/history/`),
    server.json(`/api/images/${imageId}/`),
    server.json(`/api/predictions/summary/?task_id=${taskId}`),
  ]);
  return {
    result: result.body,
    history: history.body,
    image: image.body,
    summary: summary.body,
    files: await storedKeys(`results/${taskId}/`),
  };
}

const patch = (id: number, index: number | string, body: unknown) =>
  server.json(`/api/predictions/${id}/specimens/${index}/`, { method: 'PATCH', body: body as any });
const add = (id: number, body: unknown) =>
  server.json(`/api/predictions/${id}/specimens/`, { method: 'POST', body: body as any });

beforeAll(async () => {
  server = await startTestServer({ WORKERS: '2' });
  const slices = await uploadFiles(server.url, await specimenFiles(3, { width: 480, height: 320, seed: 40 }));
  const grey = await uploadFiles(server.url, [{ name: 'grey.jpg', bytes: await makeGreyJpeg() }]);
  imageIds = slices.map((s) => s.id);
  greyId = grey[0]!.id;
  const created = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Review run', image_ids: [...imageIds, greyId], split_count: 2 },
  });
  expect(created.status).toBe(201);
  taskId = created.body.id;
  const { task } = await waitForTask(server.url, taskId);
  expect(task.status).toBe('completed');
});
afterAll(async () => {
  await server?.close();
});

describe('reviewing one specimen (PATCH /predictions/{id}/specimens/{index}/)', () => {
  it('excludes a specimen: the mean, band and the image follow; the engine values stay', async () => {
    const before = await resultOf(imageIds[0]!);
    expect(before.specimens.length).toBeGreaterThanOrEqual(2);
    expect(before.reviewed).toBe(false);
    const res = await patch(before.id, 2, { excluded: true, note: 'a shadow, not a slice' });
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.specimens[1].excluded).toBe(true);
    expect(r.specimens[1].needs_review).toBe(false);
    const counted = before.specimens.filter((s: any) => s.index !== 2).map((s: any) => s.ppd);
    expect(r.sub_ppd_values).toEqual(counted);
    expect(r.ppd_value).toBe(mean2(counted));
    expect(r.engine_ppd_value).toBe(before.engine_ppd_value);
    expect(r.specimens.map((s: any) => s.engine_ppd)).toEqual(before.specimens.map((s: any) => s.engine_ppd));
    expect(r.reviewed).toBe(true);
    const image = await server.json(`/api/images/${imageIds[0]}/`);
    expect(image.body.ppdValue).toBe(r.ppd_value);
    expect(image.body.lastPrediction).toBe(r.prediction);

    const back = await patch(before.id, 2, { excluded: false });
    expect(back.status).toBe(200);
    expect(back.body.specimens[1].excluded).toBe(false);
    expect(back.body.ppd_value).toBe(before.ppd_value);
  });

  it("sets a reviewer's PPD with a note: marked corrected beside the engine's; summary, severity, image and export follow", async () => {
    const before = await resultOf(imageIds[1]!);
    const engine1 = before.specimens[0].engine_ppd;
    const res = await patch(before.id, 1, { ppd: 9.5, note: 'lesion under the label' });
    expect(res.status).toBe(200);
    const s1 = res.body.specimens[0];
    expect(s1).toMatchObject({ ppd: 9.5, engine_ppd: engine1, corrected: true, needs_review: false, source: 'engine' });
    const expected = mean2([9.5, ...before.specimens.slice(1).map((s: any) => s.ppd)]);
    expect(res.body.ppd_value).toBe(expected);
    expect(res.body.engine_ppd_value).toBe(before.engine_ppd_value);

    // Listing, filters and summary read the reviewed value.
    const reviewed = await server.json(`/api/predictions/?task_id=${taskId}&reviewed=true`);
    expect(reviewed.body.results.map((x: any) => x.id)).toContain(before.id);
    const notReviewed = await server.json(`/api/predictions/?task_id=${taskId}&reviewed=false`);
    expect(notReviewed.body.results.map((x: any) => x.id)).not.toContain(before.id);
    const band = expected >= 7 ? 'severe' : expected >= 4 ? 'mild' : 'healthy';
    const inBand = await server.json(`/api/predictions/?task_id=${taskId}&severity=${band}`);
    expect(inBand.body.results.map((x: any) => x.id)).toContain(before.id);
    const summary = await server.json(`/api/predictions/summary/?task_id=${taskId}`);
    const all = await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`);
    const scored = all.body.results.filter((x: any) => x.ppd_value !== null).map((x: any) => x.ppd_value);
    expect(summary.body.max).toBe(Math.max(...scored));
    expect(summary.body.average).toBeCloseTo(scored.reduce((a: number, b: number) => a + b, 0) / scored.length, 3);
    expect(summary.body.bands.healthy + summary.body.bands.mild + summary.body.bands.severe).toBe(scored.length);
    const image = await server.json(`/api/images/${imageIds[1]}/`);
    expect(image.body.ppdValue).toBe(expected);

    // The export carries both values; format=specimens shows the correction beside the engine's value.
    const csv = new TextDecoder().decode(
      new Uint8Array(await (await server.request(`/api/predictions/export/?task_id=${taskId}`)).arrayBuffer()).slice(3),
    );
    const [header, ...rows] = csv.trim().split('\r\n');
    const cols = header!.split(',');
    const row = rows.find((l) => l.startsWith(`${before.imageName},`))!.split(',');
    expect(Number(row[cols.indexOf('ppd_value')])).toBe(expected);
    expect(Number(row[cols.indexOf('engine_ppd_value')])).toBe(before.engine_ppd_value);
    expect(row[cols.indexOf('reviewed')]).toBe('true');
    const spec = new TextDecoder().decode(
      new Uint8Array(
        await (
          await server.request(`/api/predictions/export/?task_id=${taskId}&format=specimens&reviewed=true`)
        ).arrayBuffer(),
      ).slice(3),
    );
    const [sh, ...srows] = spec.trim().split('\r\n');
    const sc = sh!.split(',');
    const first = srows
      .map((l) => l.split(','))
      .find((c) => c[0] === before.imageName && c[sc.indexOf('index')] === '1')!;
    expect(Number(first[sc.indexOf('ppd')])).toBe(9.5);
    expect(Number(first[sc.indexOf('engine_ppd')])).toBe(engine1);
    expect(first[sc.indexOf('corrected')]).toBe('true');
    // Issue 25: the box, the reviewer's note, the image and the band of the reviewed value are in the row.
    expect(first[sc.indexOf('note')]).toBe('lesion under the label');
    expect(first[sc.indexOf('band')]).toBe('severe');
    expect(first[sc.indexOf('image_id')]).toBe(String(imageIds[1]));
    expect(first[sc.indexOf('box')]).toMatch(/^\d+ \d+ \d+ \d+$/);
    // The specimen excluded and included again in the first test keeps the exclusion's note (the inclusion had none).
    const firstImage = (await resultOf(imageIds[0]!)).imageName;
    // (an RFC 4180 line: the note has a comma, so it is quoted)
    const cells = (line: string) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
        .slice(0, -1)
        .map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"'));
    const reincluded = srows.map(cells).find((c) => c[0] === firstImage && c[sc.indexOf('index')] === '2')!;
    expect(reincluded[sc.indexOf('note')]).toBe('a shadow, not a slice');
    expect(reincluded[sc.indexOf('excluded')]).toBe('false');

    // null returns to the engine's value.
    const reset = await patch(before.id, 1, { ppd: null, note: 'second look: the engine was right' });
    expect(reset.status).toBe(200);
    expect(reset.body.specimens[0]).toMatchObject({ ppd: engine1, engine_ppd: engine1, corrected: false });
    expect(reset.body.ppd_value).toBe(before.ppd_value);
    expect(reset.body.reviewed).toBe(true);
  });

  it('keeps the history of a result, oldest first, with from/to, the note and a null user (sign-in off)', async () => {
    const r = await resultOf(imageIds[1]!);
    const h = await server.json(`/api/predictions/${r.id}/history/`);
    expect(h.status).toBe(200);
    expect(h.body.map((e: any) => e.change)).toEqual(['ppd', 'reset']);
    expect(h.body[0]).toMatchObject({
      index: 1,
      from: r.specimens[0].engine_ppd,
      to: 9.5,
      note: 'lesion under the label',
      user: null,
    });
    expect(h.body[1]).toMatchObject({ index: 1, from: 9.5, to: r.specimens[0].engine_ppd, user: null });
    expect(Date.parse(h.body[0].time)).toBeLessThanOrEqual(Date.parse(h.body[1].time));
    expect(h.body[0].time).toMatch(/Z$/);
    const first = await resultOf(imageIds[0]!);
    const h0 = await server.json(`/api/predictions/${first.id}/history/`);
    expect(h0.body.map((e: any) => [e.change, e.from, e.to])).toEqual([
      ['excluded', false, true],
      ['included', true, false],
    ]);
    expect((await server.json('/api/predictions/999999/history/')).status).toBe(404);
    // Without the trailing slash: the same answers.
    expect((await server.json(`/api/predictions/${r.id}/history`)).body).toEqual(h.body);
    const noSlash = await server.json(`/api/predictions/${r.id}/specimens/1`, { method: 'PATCH', body: { ppd: 11 } });
    expect(noSlash.status).toBe(400);
  });
});

describe('bad review input: a clear 4xx and nothing changed', () => {
  it('refuses each bad PATCH with its code and leaves the result, history, image, summary and files alone', async () => {
    const r = await resultOf(imageIds[2]!);
    const n = r.specimens.length;
    const before = await snapshot(r.id, imageIds[2]!);
    const cases: [number | string, unknown, number, string, string?][] = [
      [n + 1, { excluded: true }, 404, 'unknown_specimen'],
      [99, { ppd: 3 }, 404, 'unknown_specimen'],
      [0, { ppd: 3 }, 400, 'invalid', 'index'],
      ['abc', { ppd: 3 }, 400, 'invalid', 'index'],
      [1, { ppd: 10.01 }, 400, 'invalid', 'ppd'],
      [1, { ppd: -0.5 }, 400, 'invalid', 'ppd'],
      [1, { ppd: '5' }, 400, 'invalid', 'ppd'],
      [1, { excluded: 'yes' }, 400, 'invalid', 'excluded'],
      [1, { ppd: 5, note: 'x'.repeat(501) }, 400, 'invalid', 'note'],
      [1, {}, 400, 'invalid'],
      [1, { note: 'only a note' }, 400, 'invalid'],
    ];
    for (const [index, body, status, code, field] of cases) {
      const res = await patch(r.id, index, body);
      expect(res.status, JSON.stringify([index, body])).toBe(status);
      expect(res.body.code).toBe(code);
      expect(typeof res.body.detail).toBe('string');
      if (field) expect(Object.keys(res.body.fields)).toContain(field);
    }
    const malformed = await server.request(`/api/predictions/${r.id}/specimens/1/`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"ppd": 5',
    });
    expect(malformed.status).toBe(400);
    expect((await patch(999_999, 1, { ppd: 5 })).status).toBe(404);
    expect(await snapshot(r.id, imageIds[2]!)).toEqual(before);
  });

  it('refuses to exclude the last specimen still counted: 409 last_specimen', async () => {
    const r = await resultOf(imageIds[2]!);
    const n = r.specimens.length;
    for (let i = 2; i <= n; i++) expect((await patch(r.id, i, { excluded: true })).status).toBe(200);
    const before = await snapshot(r.id, imageIds[2]!);
    const last = await patch(r.id, 1, { excluded: true });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('last_specimen');
    expect(await snapshot(r.id, imageIds[2]!)).toEqual(before);
    // A note of exactly 500 characters is fine.
    for (let i = 2; i <= n; i++)
      expect((await patch(r.id, i, { excluded: false, note: 'y'.repeat(500) })).status).toBe(200);
  });

  it('refuses to review a failed result: 409 not_scored, for PATCH and POST', async () => {
    const failed = await resultOf(greyId);
    expect(failed.error_code).not.toBeNull();
    const before = await snapshot(failed.id, greyId);
    const p = await patch(failed.id, 1, { ppd: 5 });
    expect(p.status).toBe(409);
    expect(p.body.code).toBe('not_scored');
    const a = await add(failed.id, { box: [10, 10, 50, 50], ppd: 5 });
    expect(a.status).toBe(409);
    expect(a.body.code).toBe('not_scored');
    expect(await snapshot(failed.id, greyId)).toEqual(before);
  });
});

describe('adding a specimen the engine missed (POST /predictions/{id}/specimens/)', () => {
  it("scores the box with the engine: next index, source reviewer, its own images, the engine's value kept", async () => {
    const r = await resultOf(imageIds[0]!);
    const n = r.specimens.length;
    // Box round the first slice, a little wider than the engine's own box.
    const [bx, by, bw, bh] = r.specimens[0].box;
    const box = [Math.max(0, bx - 6), Math.max(0, by - 6), bw + 12, bh + 12];
    const res = await add(r.id, { box, note: 'missed slice' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const added = res.body.specimens[n];
    expect(added).toMatchObject({ index: n + 1, source: 'reviewer', excluded: false, corrected: false, box });
    expect(typeof added.engine_ppd).toBe('number');
    expect(added.ppd).toBe(added.engine_ppd);
    expect(added.cut_url).toMatch(/^\/media\/|^https?:/);
    expect(added.pred_url).toMatch(/^\/media\/|^https?:/);
    expect((await server.request(added.cut_url.startsWith('http') ? added.cut_url : added.cut_url)).status).toBe(200);
    expect(res.body.vis_images[`cut2_${n + 1}`]).toBe(added.cut_url);
    expect(res.body.sub_ppd_values).toHaveLength(n + 1);
    expect(res.body.engine_ppd_value).toBe(r.engine_ppd_value);
    const h = await server.json(`/api/predictions/${r.id}/history/`);
    expect(h.body.at(-1)).toMatchObject({
      index: n + 1,
      change: 'added',
      from: null,
      to: added.ppd,
      note: 'missed slice',
      user: null,
    });
  });

  it("takes a reviewer's score for the box (no engine value to return to), and any kind", async () => {
    const r = await resultOf(imageIds[1]!);
    const n = r.specimens.length;
    const res = await add(r.id, { box: [0, 0, 40, 30], ppd: 6.25, kind: 'leaf' });
    expect(res.status).toBe(201);
    const added = res.body.specimens[n];
    expect(added).toMatchObject({
      index: n + 1,
      kind: 'leaf',
      ppd: 6.25,
      engine_ppd: null,
      corrected: true,
      source: 'reviewer',
      box: [0, 0, 40, 30],
    });
    expect(added.cut_url).not.toBeNull();
    expect(res.body.ppd_value).toBe(mean2([...r.sub_ppd_values, 6.25]));
    const reset = await patch(r.id, n + 1, { ppd: null });
    expect(reset.status).toBe(409);
    expect(reset.body.code).toBe('no_engine_value');
    // It can be corrected and excluded like any other.
    expect((await patch(r.id, n + 1, { ppd: 5 })).body.specimens[n].ppd).toBe(5);
    expect((await patch(r.id, n + 1, { excluded: true })).body.sub_ppd_values).toEqual(r.sub_ppd_values);
  });

  it('refuses bad boxes and bad values with a 4xx, storing nothing', async () => {
    const r = await resultOf(imageIds[2]!);
    const before = await snapshot(r.id, imageIds[2]!);
    const cases: [unknown, number, string][] = [
      [{ box: [450, 0, 40, 40], ppd: 5 }, 400, 'box'], // past the right edge (480 wide)
      [{ box: [0, 300, 40, 40], ppd: 5 }, 400, 'box'], // past the bottom (320 high)
      [{ box: [-1, 0, 40, 40], ppd: 5 }, 400, 'box.0'],
      [{ box: [0, 0, 7, 40], ppd: 5 }, 400, 'box.2'],
      [{ box: [0, 0, 40, 7], ppd: 5 }, 400, 'box.3'],
      [{ box: [0, 0, 40.5, 40], ppd: 5 }, 400, 'box.2'],
      [{ box: [0, 0, 40] }, 400, 'box'],
      [{ box: 'all' }, 400, 'box'],
      [{}, 400, 'box'],
      [{ box: [0, 0, 40, 40], ppd: 11 }, 400, 'ppd'],
      [{ box: [0, 0, 40, 40], kind: 'stem', ppd: 5 }, 400, 'kind'],
      [{ box: [0, 0, 40, 40], ppd: 5, note: 'z'.repeat(501) }, 400, 'note'],
    ];
    for (const [body, status, field] of cases) {
      const res = await add(r.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(Object.keys(res.body.fields ?? {}), JSON.stringify(res.body)).toContain(field);
    }
    // Only background inside the box: the engine finds nothing, 422 box_not_scored, and its files go.
    const empty = await add(r.id, { box: [0, 0, 40, 40] });
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe('box_not_scored');
    expect((await add(999_999, { box: [0, 0, 40, 40], ppd: 5 })).status).toBe(404);
    expect(await snapshot(r.id, imageIds[2]!)).toEqual(before);
  });
});

describe('two reviewers at once', () => {
  it('keeps every change of concurrent requests, in one order, with nothing lost', async () => {
    const r = await resultOf(imageIds[2]!);
    const historyBefore = (await server.json(`/api/predictions/${r.id}/history/`)).body.length;
    const values = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5];
    // Two reviewers: one corrects specimen 1 again and again, the other specimen 2; plus boxes added meanwhile.
    const answers = await Promise.all([
      ...values.map((v, i) => patch(r.id, 1 + (i % 2), { ppd: v, note: `reviewer ${1 + (i % 2)}` })),
      add(r.id, { box: [0, 0, 20, 20], ppd: 1 }),
      add(r.id, { box: [20, 0, 20, 20], ppd: 2 }),
    ]);
    for (const a of answers) expect([200, 201]).toContain(a.status);
    const h = (await server.json(`/api/predictions/${r.id}/history/`)).body.slice(historyBefore);
    expect(h).toHaveLength(values.length + 2);
    const final = await server.json(`/api/predictions/${r.id}/`);
    // Both added specimens are there, with distinct indexes; each specimen's value is its last change's.
    const addedIdx = h.filter((e: any) => e.change === 'added').map((e: any) => e.index);
    expect(new Set(addedIdx).size).toBe(2);
    for (const i of [1, 2]) {
      const changes = h.filter((e: any) => e.index === i);
      expect(changes).toHaveLength(values.length / 2);
      expect(final.body.specimens[i - 1].ppd).toBe(changes.at(-1).to);
      // Each change starts where the one before it ended: applied one after the other.
      for (let k = 1; k < changes.length; k++) expect(changes[k].from).toBe(changes[k - 1].to);
    }
    const counted = final.body.specimens.filter((s: any) => !s.excluded).map((s: any) => s.ppd);
    expect(final.body.ppd_value).toBe(mean2(counted));
  });
});

describe('the review filters and the task', () => {
  it('needs_review and reviewed filter the listing; task statistics follow the reviewed bands', async () => {
    const reviewed = await server.json(`/api/predictions/?task_id=${taskId}&reviewed=true`);
    expect(reviewed.body.count).toBe(3);
    const open = await server.json(`/api/predictions/?task_id=${taskId}&needs_review=true`);
    for (const x of open.body.results) expect(x.needs_review).toBe(true);
    const task = await server.json(`/api/tasks/${taskId}/`);
    const all = await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`);
    const scored = all.body.results.filter((x: any) => x.ppd_value !== null);
    expect(task.body.statistics.healthyCount).toBe(scored.filter((x: any) => x.ppd_value < 4).length);
    expect(task.body.statistics.diseaseCount).toBe(scored.filter((x: any) => x.ppd_value >= 4).length);
    expect((await server.json(`/api/predictions/?needs_review=maybe`)).status).toBe(400);
  });

  it('deleting the task removes the added specimens with the results, their files and history', async () => {
    expect((await server.request(`/api/tasks/${taskId}/`, { method: 'DELETE' })).status).toBe(204);
    expect(await storedKeys(`results/${taskId}/`)).toEqual([]);
    const left = await server.ctx.db.kysely.selectFrom('result_reviews').select('id').execute();
    expect(left).toEqual([]);
    for (const id of imageIds) expect((await server.json(`/api/images/${id}/`)).body.ppdValue).toBeNull();
  });
});
