import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultsRepository } from '../src/predictions/results.repository.js';
import { makeSpecimenJpeg, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * `GET /predictions/groups/?values=true` (an addition, docs/api.md): each group also lists the reviewed PPD of its
 * results, for a dot plot of every result beside the mean and interval. Over a task the real engine scored; runs on
 * SQLite and, in the full suite, on PostgreSQL.
 */
let server: TestServer;
let taskId: number;
const NAMES = ['TME419_1_7d_R1.jpg', 'TME419_2_7d_R1.jpg', 'TME419_3_14d_R2.jpg', 'TME693_1_7d_R1.jpg', 'loose.jpg'];

/** The scored results of the task as the listing gives them: image name -> reviewed PPD. */
async function scoredValues(): Promise<Map<string, number>> {
  const list = await server.json(`/api/predictions/?task_id=${taskId}&page_size=100`);
  return new Map(list.body.results.map((r: any) => [r.imageName, r.ppd_value as number]));
}

beforeAll(async () => {
  server = await startTestServer();
  const files = await Promise.all(
    NAMES.map(async (name, i) => ({
      name,
      bytes: await makeSpecimenJpeg({ width: 360, height: 240, seed: 4 + i * 7 }),
    })),
  );
  const uploaded = await uploadFiles(server.url, files);
  const parse = await server.json('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: uploaded.map((u) => u.id), apply: true },
  });
  expect(parse.body.applied).toBe(4);
  const task = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Values', image_ids: uploaded.map((u) => u.id) },
  });
  taskId = task.body.id;
  expect((await waitForTask(server.url, taskId)).task.status).toBe('completed');
});

afterAll(async () => {
  await server?.close();
});

describe('GET /predictions/groups/?values=true', () => {
  it("lists each group's reviewed values, ascending, matching its n and mean; without it there are none", async () => {
    const plain = await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}`);
    expect(plain.status).toBe(200);
    expect(plain.body.every((g: any) => !('values' in g))).toBe(true);

    const res = await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}&values=true`);
    expect(res.status).toBe(200);
    const scored = await scoredValues();
    const expected = (prefix: string | null) =>
      [...scored]
        .filter(([name]) => (prefix ? name.startsWith(prefix) : name === 'loose.jpg'))
        .map(([, v]) => v)
        .sort((a, b) => a - b);
    expect(res.body.map((g: any) => [g.key.genotype, g.values])).toEqual([
      ['TME419', expected('TME419_')],
      ['TME693', expected('TME693_')],
      [null, expected(null)],
    ]);
    for (const g of res.body) {
      expect(g.values).toHaveLength(g.images);
      expect(g.values.reduce((a: number, v: number) => a + v, 0) / g.images).toBeCloseTo(g.mean, 3);
    }
    // The figures are the same with or without the values.
    expect(res.body.map(({ values: _v, ...g }: any) => g)).toEqual(plain.body);
  });

  it('follows two fields, the filters and a review change', async () => {
    const two = await server.json(`/api/predictions/groups/?by=genotype,dah&task_id=${taskId}&values=true`);
    expect(two.body.map((g: any) => [g.key.genotype, g.key.dah, g.values.length])).toEqual([
      ['TME419', 7, 2],
      ['TME419', 14, 1],
      ['TME693', 7, 1],
      [null, null, 1],
    ]);
    const filtered = await server.json(
      `/api/predictions/groups/?by=rep&task_id=${taskId}&meta.genotype=TME419&severity=healthy&values=true`,
    );
    const healthy = [...(await scoredValues())].filter(([n, v]) => n.startsWith('TME419_') && v < 4);
    expect(filtered.body.flatMap((g: any) => g.values).length).toBe(healthy.length);

    // A reviewer sets every slice of the TME693 photo to 10: its value in the group follows.
    const result = (await server.json(`/api/predictions/?task_id=${taskId}&meta.genotype=TME693`)).body.results[0];
    for (const s of result.specimens) {
      await server.json(`/api/predictions/${result.id}/specimens/${s.index}/`, { method: 'PATCH', body: { ppd: 10 } });
    }
    const after = await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}&values=true`);
    expect(after.body.find((g: any) => g.key.genotype === 'TME693').values).toEqual([10]);
  });

  it('gives no values past the limit, and a bad values parameter is a 400', async () => {
    const repo = new ResultsRepository(server.ctx.db.kysely);
    const all = await repo.groupValues({ taskId }, ['genotype'], 5);
    expect(all).toHaveLength(5);
    expect(await repo.groupValues({ taskId }, ['genotype'], 4)).toBeNull();

    for (const v of ['1', 'yes', 'TRUE']) {
      const res = await server.json(`/api/predictions/groups/?by=genotype&values=${v}`);
      expect(res.status, v).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(Object.keys(res.body.fields)).toContain('values');
    }
  });
});
