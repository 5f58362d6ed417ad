import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecimenJpeg, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 25 item 1: a photo is one observation. Two tasks score some of the same photos; the group summary without
 * a task counts each photo once, by its newest scored result (with its reviewed values), as api.md says; picked
 * tasks (`task_ids`) count each photo once too, by its newest result among them; the listing's
 * `newest_per_image=true` lists exactly the results the groups count; and a group of fewer than 3 photos has no
 * interval (with two, Student's t of 1 degree of freedom spans far past the 0-10 scale).
 */
let server: TestServer;
let taskA: number;
let taskB: number;

interface Group {
  key: Record<string, string | number | null>;
  images: number;
  specimens: number;
  mean: number | null;
  sd: number | null;
  ci95: [number, number] | null;
  bands: { healthy: number; mild: number; severe: number };
}
interface Row {
  id: number;
  image_id: number;
  imageName: string;
  task_id: number;
  ppd_value: number | null;
  sub_ppd_values: number[];
  specimens: { index: number }[];
}

const NAMES = ['TME419_1.jpg', 'TME419_2.jpg', 'TME419_3.jpg', 'TME693_1.jpg', 'TME693_2.jpg'];

async function runTask(name: string, imageIds: number[], params: Record<string, unknown> = {}): Promise<number> {
  const task = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name, image_ids: imageIds, ...params },
  });
  expect(task.status).toBe(201);
  expect((await waitForTask(server.url, task.body.id)).task.status).toBe('completed');
  return task.body.id;
}

async function groups(query = ''): Promise<Group[]> {
  const res = await server.json(`/api/predictions/groups/?by=genotype${query}`);
  expect(res.status, query).toBe(200);
  return res.body;
}

async function results(query: string): Promise<Row[]> {
  const res = await server.json(`/api/predictions/?page_size=100${query}`);
  expect(res.status, query).toBe(200);
  return res.body.results;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const of = (list: Group[], genotype: string) => list.find((g) => g.key.genotype === genotype)!;

beforeAll(async () => {
  server = await startTestServer();
  const files = await Promise.all(
    NAMES.map(async (name, i) => ({
      name,
      bytes: await makeSpecimenJpeg({ width: 360, height: 240, seed: 4 + i * 9 }),
    })),
  );
  const uploaded = await uploadFiles(server.url, files);
  const ids = Object.fromEntries(uploaded.map((u) => [u.name, u.id]));
  const parse = await server.json('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}', image_ids: uploaded.map((u) => u.id), apply: true },
  });
  expect(parse.body.applied).toBe(5);
  taskA = await runTask(
    'First run',
    uploaded.map((u) => u.id),
  );
  // A second run of two TME419 photos and one TME693 photo, at another threshold: other values.
  taskB = await runTask('Second run', [ids['TME419_1.jpg']!, ids['TME419_2.jpg']!, ids['TME693_1.jpg']!], {
    threshold: 0.2,
  });
});

afterAll(async () => {
  await server.close();
});

describe('group statistics count a photo once', () => {
  it('without a task: each photo once, by its newest scored result', async () => {
    const all = await groups();
    expect(all.map((g) => [g.key.genotype, g.images])).toEqual([
      ['TME419', 3],
      ['TME693', 2],
    ]);
    // The values are those of each photo's newest result: the second run's where it scored the photo.
    const newest = await results('&newest_per_image=true&meta.genotype=TME419');
    expect(newest).toHaveLength(3);
    expect(
      newest
        .filter((r) => r.task_id === taskB)
        .map((r) => r.imageName)
        .sort(),
    ).toEqual(['TME419_1.jpg', 'TME419_2.jpg']);
    const first = await results(`&task_id=${taskA}&meta.genotype=TME419`);
    const second = await results(`&task_id=${taskB}&meta.genotype=TME419`);
    const valueOf = (rows: Row[], name: string) => rows.find((r) => r.imageName === name)!.ppd_value;
    expect(valueOf(second, 'TME419_1.jpg')).not.toBe(valueOf(first, 'TME419_1.jpg'));
    const tme419 = of(all, 'TME419');
    expect(tme419.mean).toBeCloseTo(mean(newest.map((r) => r.ppd_value!)), 3);
    expect(tme419.specimens).toBe(newest.reduce((a, r) => a + r.sub_ppd_values.length, 0));
    expect(tme419.bands.healthy + tme419.bands.mild + tme419.bands.severe).toBe(3);
    // Every result of every task is still listed without the flag (a photo once per task).
    expect(await results('&meta.genotype=TME419')).toHaveLength(5);
  });

  it('picked tasks: each photo once, by its newest result among them; one task alone is that task', async () => {
    const both = await groups(`&task_ids=${taskA},${taskB}`);
    expect(both.map((g) => [g.key.genotype, g.images])).toEqual([
      ['TME419', 3],
      ['TME693', 2],
    ]);
    const onlyA = await groups(`&task_ids=${taskA}`);
    const aRows = await results(`&task_id=${taskA}&meta.genotype=TME419`);
    expect(of(onlyA, 'TME419').images).toBe(3);
    expect(of(onlyA, 'TME419').mean).toBeCloseTo(mean(aRows.map((r) => r.ppd_value!)), 3);
    expect(await groups(`&task_id=${taskA}`)).toEqual(onlyA);
    const onlyB = await groups(`&task_ids=${taskB}`);
    expect(onlyB.map((g) => [g.key.genotype, g.images])).toEqual([
      ['TME419', 2],
      ['TME693', 1],
    ]);
    // The listing with the same query lists the photos the groups count.
    const listed = await results(`&task_ids=${taskA},${taskB}&newest_per_image=true&meta.genotype=TME693`);
    expect(listed.map((r) => r.imageName).sort()).toEqual(['TME693_1.jpg', 'TME693_2.jpg']);
    expect(listed.find((r) => r.imageName === 'TME693_1.jpg')!.task_id).toBe(taskB);
  });

  it('follows a review of the newest result, not of an older one', async () => {
    const before = of(await groups(), 'TME419');
    // The first run's result of TME419_1 is older than the second run's: reviewing it leaves the group alone.
    const older = (await results(`&task_id=${taskA}&search=TME419_1`))[0]!;
    for (const s of older.specimens)
      expect(
        (
          await server.json(`/api/predictions/${older.id}/specimens/${s.index}/`, {
            method: 'PATCH',
            body: { ppd: 10 },
          })
        ).status,
      ).toBe(200);
    expect(of(await groups(), 'TME419').mean).toBeCloseTo(before.mean!, 4);
    // TME419_3's newest result is the first run's: a reviewer's 0 on each slice moves the mean.
    const newest = (await results(`&task_id=${taskA}&search=TME419_3`))[0]!;
    for (const s of newest.specimens)
      await server.json(`/api/predictions/${newest.id}/specimens/${s.index}/`, { method: 'PATCH', body: { ppd: 0 } });
    const values = (await results('&newest_per_image=true&meta.genotype=TME419')).map((r) => r.ppd_value!);
    expect(values).toContain(0);
    expect(of(await groups(), 'TME419').mean).toBeCloseTo(mean(values), 3);
  });

  it('gives an interval from 3 photos on: 2 photos have an SD but no interval', async () => {
    const all = await groups();
    const tme693 = of(all, 'TME693');
    expect(tme693.images).toBe(2);
    expect(tme693.sd).not.toBeNull();
    expect(tme693.ci95).toBeNull();
    const tme419 = of(all, 'TME419');
    expect(tme419.ci95).not.toBeNull();
    expect(tme419.ci95![0]).toBeLessThanOrEqual(tme419.mean!);
    // The CSV leaves the interval empty for the group of two.
    const csv = await (await server.request('/api/predictions/groups/export/?by=genotype')).text();
    const rows = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(rows.slice(1).map((r) => [r[0], r[1], r[5], r[6]])).toEqual([
      ['TME419', '3', String(tme419.ci95![0]), String(tme419.ci95![1])],
      ['TME693', '2', '', ''],
    ]);
  });

  it('refuses task_ids with task_id, and bad ids, with a 400 naming task_ids', async () => {
    for (const q of [`task_id=${taskA}&task_ids=${taskB}`, 'task_ids=abc', 'task_ids=1,,2', 'task_ids=0']) {
      const res = await server.json(`/api/predictions/groups/?by=genotype&${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.fields, q).toHaveProperty('task_ids');
    }
    expect((await server.json('/api/predictions/?newest_per_image=maybe')).status).toBe(400);
  });
});
