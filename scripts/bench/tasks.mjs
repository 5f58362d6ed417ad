// A 1 000-image prediction task end to end through the real server (the embedded queue), against the
// engine's own throughput on the same images and worker count; plus the API's latency while the task
// saturates the cores. Images are 640 x 480 by default (BENCH_WIDTH changes it) so the run stays within
// minutes; the engine figure is taken here on the very same images, which is what the ratio needs. Figures: engine images/s, task images/s (POST to completed), their ratio, and
// p50/p95 of GET /api/tasks/ and GET /api/images/ during the run. Temp data is removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { figure, percentile, startServer, uploadBenchImages } from './_server.mjs';

import { createEngine } from '@cassavascope/ppd';
import { renderSceneJpeg } from '@cassavascope/ppd/synthetic';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 1000);
const WIDTH = Number(process.env.BENCH_WIDTH ?? 640);
const HEIGHT = Math.round((WIDTH * 3) / 4);
const UNIQUE = 24;
const ENGINE_SAMPLE = Math.min(IMAGES, Number(process.env.BENCH_ENGINE_IMAGES ?? 120));
const WORKERS = Number(process.env.WORKERS ?? os.availableParallelism());
const bench = 'tasks';

// Photos of cassava slices (the engine's own synthetic scenes), reused round-robin under distinct names.
const scenes = [];
for (let i = 0; i < UNIQUE; i++)
  scenes.push((await renderSceneJpeg({ width: WIDTH, height: HEIGHT, seed: 1000 + i })).jpeg);

// 1. The engine alone: same images, same workers, kept busy (a few images queued per worker).
{
  const engine = await createEngine({ workers: WORKERS });
  await engine.analyse(scenes[0], {}, 'full'); // warm the workers
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < ENGINE_SAMPLE) await engine.analyse(scenes[next++ % UNIQUE], {}, 'full');
  };
  await Promise.all(Array.from({ length: WORKERS + 2 }, lane));
  const seconds = (performance.now() - started) / 1000;
  await engine.close();
  var engineRate = ENGINE_SAMPLE / seconds;
  figure(bench, 'engine_images_per_s', engineRate, 'images/s', {
    images: ENGINE_SAMPLE,
    workers: WORKERS,
    size: `${WIDTH}x${HEIGHT}`,
  });
}

// 2. The same work as a task through the server.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-tasks-'));
const server = await startServer(dataDir, { env: { WORKERS: String(WORKERS) } });
try {
  const ids = await uploadBenchImages(server.url, scenes, IMAGES);
  server.resetPeak();

  // The same requests with the server idle, as the baseline of the figures under load.
  const sample = async (into) => {
    for (const [kind, url] of [
      ['tasks', '/api/tasks/'],
      ['images', '/api/images/?page_size=50'],
    ]) {
      const t0 = performance.now();
      const res = await fetch(server.url + url);
      await res.arrayBuffer();
      into[kind].push(performance.now() - t0);
    }
  };
  const idle = { tasks: [], images: [] };
  for (let i = 0; i < 100; i++) await sample(idle);

  const latencies = { tasks: [], images: [] };
  const started = performance.now();
  const created = await fetch(`${server.url}/api/tasks/prediction/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Benchmark', image_ids: ids, split_count: 32 }),
  });
  const task = await created.json();
  if (created.status !== 201) throw new Error(`task creation failed: ${JSON.stringify(task)}`);

  // A user watching: the task list and an image page, one request at a time, until the task is done.
  let final;
  for (;;) {
    await sample(latencies);
    const res = await fetch(`${server.url}/api/tasks/${task.id}/`);
    final = await res.json();
    if (final.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const taskRate = IMAGES / seconds;
  figure(bench, 'task_seconds', seconds, 's', { images: IMAGES, status: final.status, failed: final.failed_count });
  figure(bench, 'task_images_per_s', taskRate, 'images/s');
  figure(bench, 'task_vs_engine', (taskRate / engineRate) * 100, '%');
  // Load-independent view of the same: the engine's own seconds summed over the images (the task's
  // statistics) against the wall time the workers had. 100 % = the queue never let a worker idle.
  figure(bench, 'queue_efficiency', (final.statistics.processingTime / (WORKERS * seconds)) * 100, '%');
  for (const kind of ['tasks', 'images']) {
    figure(
      bench,
      `api_${kind}_p95_idle`,
      percentile(
        idle[kind].sort((a, b) => a - b),
        95,
      ),
      'ms',
      { samples: idle[kind].length },
    );
    const sorted = latencies[kind].sort((a, b) => a - b);
    figure(bench, `api_${kind}_p50_under_load`, percentile(sorted, 50), 'ms', { samples: sorted.length });
    figure(bench, `api_${kind}_p95_under_load`, percentile(sorted, 95), 'ms', { samples: sorted.length });
  }
  figure(bench, 'server_peak_rss', server.peakRss() / 1048576, 'MB');
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
