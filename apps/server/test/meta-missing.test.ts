import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecimenJpeg, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * `meta_missing=FIELD[,FIELD]` (an addition, docs/api.md): the images without a field, i.e. the group whose key
 * value is null, on the image listing, the result listing, its export and the group summary. And the summary
 * (GET /predictions/summary/), which takes the listing's filters (also an addition) with meta.FIELD=VALUE and
 * meta_missing. Over a task the real engine scored; runs on SQLite and, in the full suite, on PostgreSQL.
 */
let server: TestServer;
let taskId: number;

const names = (body: { results: { name?: string; imageName?: string }[] }) =>
  body.results.map((r) => r.name ?? r.imageName).sort();

beforeAll(async () => {
  server = await startTestServer();
  const files = await Promise.all(
    ['A_full.jpg', 'A_no_dah.jpg', 'loose_1.jpg', 'loose_2.jpg'].map(async (name, i) => ({
      name,
      bytes: await makeSpecimenJpeg({ width: 360, height: 240, seed: 2 + i * 9 }),
    })),
  );
  const uploaded = await uploadFiles(server.url, files);
  const id = (name: string) => uploaded.find((u) => u.name === name)!.id;
  const set = (name: string, metadata: Record<string, unknown>) =>
    server.json(`/api/images/${id(name)}/`, { method: 'PATCH', body: { metadata } });
  expect((await set('A_full.jpg', { genotype: 'A', dah: 7 })).status).toBe(200);
  expect((await set('A_no_dah.jpg', { genotype: 'A' })).status).toBe(200);
  const task = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Missing', image_ids: uploaded.map((u) => u.id) },
  });
  taskId = task.body.id;
  expect((await waitForTask(server.url, taskId)).task.status).toBe('completed');
});

afterAll(async () => {
  await server?.close();
});

describe('meta_missing', () => {
  it('lists the images without a field, alone or with meta.FIELD=VALUE; empty is no filter', async () => {
    expect(names((await server.json('/api/images/?meta_missing=genotype')).body)).toEqual([
      'loose_1.jpg',
      'loose_2.jpg',
    ]);
    expect(names((await server.json('/api/images/?meta_missing=dah&meta.genotype=A')).body)).toEqual(['A_no_dah.jpg']);
    // Two fields: without both.
    expect(names((await server.json('/api/images/?meta_missing=dah, genotype')).body)).toEqual([
      'loose_1.jpg',
      'loose_2.jpg',
    ]);
    expect((await server.json('/api/images/groups/?meta_missing=genotype')).body.count).toBe(2);
    expect((await server.json('/api/images/?meta_missing=')).body.count).toBe(4);
    // A field nobody has: every image lacks it.
    expect((await server.json('/api/images/?meta_missing=plot')).body.count).toBe(4);
  });

  it('selects the null group of the group summary, and the results and export of that group', async () => {
    const listed = await server.json(`/api/predictions/?task_id=${taskId}&meta_missing=genotype`);
    expect(names(listed.body)).toEqual(['loose_1.jpg', 'loose_2.jpg']);

    const all = await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}`);
    const nullGroup = all.body.find((g: any) => g.key.genotype === null);
    expect(nullGroup.images).toBe(2);
    const only = await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}&meta_missing=genotype`);
    expect(only.body).toEqual([nullGroup]);

    const two = await server.json(
      `/api/predictions/groups/?by=genotype,dah&task_id=${taskId}&meta.genotype=A&meta_missing=dah`,
    );
    expect(two.body.map((g: any) => [g.key, g.images])).toEqual([[{ genotype: 'A', dah: null }, 1]]);

    const csv = await server.request(`/api/predictions/export/?task_id=${taskId}&meta_missing=genotype`);
    expect(csv.status).toBe(200);
    const rows = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(
      rows
        .slice(1)
        .map((r) => r.split(',')[0])
        .sort(),
    ).toEqual(['loose_1.jpg', 'loose_2.jpg']);
  });

  it("the summary follows the listing's filters: its count, mean and bands are those of the results listed", async () => {
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const filters = [
      `task_id=${taskId}`,
      `task_id=${taskId}&meta.genotype=A`,
      `task_id=${taskId}&meta_missing=genotype`,
      `task_id=${taskId}&meta.genotype=A&meta_missing=dah`,
      `task_id=${taskId}&search=loose`,
      `task_id=${taskId}&meta.genotype=B`,
    ];
    const counts: number[] = [];
    for (const filter of filters) {
      const listed = (await server.json(`/api/predictions/?${filter}`)).body.results as { ppd_value: number | null }[];
      const scored = listed.map((r) => r.ppd_value).filter((v): v is number => v !== null);
      const summary = (await server.json(`/api/predictions/summary/?${filter}`)).body;
      expect(summary.count, filter).toBe(scored.length);
      counts.push(summary.count);
      if (scored.length === 0) {
        expect(summary, filter).toMatchObject({ average: null, max: null, min: null });
        continue;
      }
      expect(summary.average, filter).toBeCloseTo(mean(scored), 3);
      expect(summary.max, filter).toBe(Math.max(...scored));
      expect(summary.min, filter).toBe(Math.min(...scored));
      expect(summary.bands.healthy + summary.bands.mild + summary.bands.severe, filter).toBe(scored.length);
    }
    // Each filter narrowed the results: 4 scored photos, 2 with genotype A, 2 without one, 1 A without dah, none B.
    expect(counts).toEqual([4, 2, 2, 1, 2, 0]);
    // The severity filter narrows the summary to its band.
    const healthy = (await server.json(`/api/predictions/summary/?task_id=${taskId}&severity=healthy`)).body;
    expect(healthy.bands.mild + healthy.bands.severe).toBe(0);
  });

  it('a bad filter on the summary is a 400 naming it, as on the listing', async () => {
    for (const [q, field] of [
      ['meta_missing=bad-name', 'meta_missing'],
      ['meta.dah=soon', 'meta.dah'],
      ['severity=awful', 'severity'],
      ['needs_review=maybe', 'needs_review'],
    ]) {
      const res = await server.json(`/api/predictions/summary/?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(Object.keys(res.body.fields)).toEqual([field]);
    }
  });

  it('a bad field name is a 400 naming meta_missing', async () => {
    for (const q of ['meta_missing=bad-name', 'meta_missing=genotype,x y']) {
      for (const path of ['/api/images/', `/api/predictions/`, '/api/predictions/groups/?by=genotype&']) {
        const url = path.includes('?') ? `${path}${q}` : `${path}?${q}`;
        const res = await server.json(url);
        expect(res.status, url).toBe(400);
        expect(res.body.code).toBe('invalid');
        expect(Object.keys(res.body.fields)).toEqual(['meta_missing']);
      }
    }
  });
});
