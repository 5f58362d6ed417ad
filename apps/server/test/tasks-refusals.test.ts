import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_CODES } from '@cassavascope/contract';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { makeGreyJpeg, specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';

/**
 * A refusal is an outcome, not a failure (api.md, Tasks; issue 25 point 3): a task whose photos the engine all
 * refuses ends completed with refused_count, not a red "Failed". Real API, queue and engine.
 */
const FIELD = resolve(__dirname, '../../../../shared/real-photos/field-leaves');
const refusal = (code: string | null) => code !== null && (REFUSAL_CODES as readonly string[]).includes(code);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ WORKERS: '2' });
});
afterAll(async () => {
  await server?.close();
});

/** A picture of random grey-level noise: no specimen in it either. */
async function makeNoiseJpeg(seed: number, width = 320, height = 240): Promise<Buffer> {
  const px = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let i = 0; i < px.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    px[i] = s >> 23;
  }
  return sharp(px, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function runTask(imageIds: number[], name: string) {
  const res = await server.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name, type: 'prediction', image_ids: imageIds, split_count: 2 },
  });
  expect(res.status).toBe(201);
  expect(res.body.refused_count).toBe(0);
  const { task } = await waitForTask(server.url, res.body.id);
  const results = (await server.json(`/api/predictions/?task_id=${task.id}&page_size=100`)).body.results as {
    error_code: string | null;
  }[];
  return { task, results };
}

describe('refused photos are outcomes', () => {
  it('a task whose every photo is refused ends completed, saying how many were refused', async () => {
    const imgs = await uploadFiles(server.url, [
      { name: 'grey.jpg', bytes: await makeGreyJpeg() },
      { name: 'noise-1.jpg', bytes: await makeNoiseJpeg(1) },
      { name: 'noise-2.jpg', bytes: await makeNoiseJpeg(2) },
    ]);
    const { task, results } = await runTask(
      imgs.map((i) => i.id),
      'All refused',
    );
    expect(results.map((r) => refusal(r.error_code))).toEqual([true, true, true]);
    expect(task).toMatchObject({
      status: 'completed',
      error_message: null,
      processed_count: 3,
      failed_count: 3,
      refused_count: 3,
    });
    const list = await server.json('/api/tasks/?search=All%20refused');
    expect(list.body.results[0]).toMatchObject({ id: task.id, status: 'completed', refused_count: 3 });
  });

  it('a mixed task counts its refusals apart from its scored photos', async () => {
    const slices = await uploadFiles(server.url, await specimenFiles(2, { width: 360, height: 240, seed: 40 }));
    const [grey] = await uploadFiles(server.url, [{ name: 'grey-2.jpg', bytes: await makeGreyJpeg(300, 200) }]);
    const { task } = await runTask([...slices.map((s) => s.id), grey!.id], 'Mixed');
    expect(task).toMatchObject({ status: 'completed', processed_count: 3, failed_count: 1, refused_count: 1 });
    expect(task.statistics.healthyCount + task.statistics.diseaseCount).toBe(2);
  });

  it.skipIf(!existsSync(FIELD))(
    'field photos of leaves on the plant: refusals counted, the task completed',
    async () => {
      const names = readdirSync(FIELD)
        .filter((n) => /\.jpe?g$/i.test(n))
        .sort()
        .slice(0, 3);
      const imgs = await uploadFiles(
        server.url,
        names.map((n) => ({ name: n, bytes: readFileSync(join(FIELD, n)) })),
      );
      const { task, results } = await runTask(
        imgs.map((i) => i.id),
        'Field leaves',
      );
      const refused = results.filter((r) => refusal(r.error_code)).length;
      expect(refused).toBeGreaterThan(0);
      expect(task.status).toBe('completed');
      expect(task.refused_count).toBe(refused);
    },
  );
});
