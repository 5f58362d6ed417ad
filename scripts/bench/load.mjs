// Issue 13's load check as a repeatable figure: the real server (apps/server/dist/main.js) runs a prediction
// task while 50 readers and 5 uploaders hit it for LOAD_SECONDS (60), on loopback only, bounded in time.
// Figures: requests answered, errors (any 5xx or a failed request), reader p50/p95/max latency, uploads
// stored, the task's outcome, peak RSS; then, after the server stops, leftover temp files (must be 0).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { figure, percentile, startServer, uploadBenchImages } from './_server.mjs';
import { renderSceneJpeg } from '@cassavascope/ppd/synthetic';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const READERS = Number(process.env.LOAD_READERS ?? 50);
const UPLOADERS = Number(process.env.LOAD_UPLOADERS ?? 5);
const TASK_IMAGES = Number(process.env.LOAD_TASK_IMAGES ?? 300);
const bench = 'load';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-load-'));
const scenes = [];
for (let i = 0; i < 12; i++) scenes.push((await renderSceneJpeg({ width: 480, height: 360, seed: 500 + i })).jpeg);
const server = await startServer(dataDir);
try {
  const ids = await uploadBenchImages(server.url, scenes, TASK_IMAGES);
  const created = await fetch(`${server.url}/api/tasks/prediction/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'load', image_ids: ids, split_count: 32 }),
  });
  const taskId = (await created.json()).id;
  server.resetPeak();

  const deadline = performance.now() + SECONDS * 1000;
  const latencies = [];
  let requests = 0;
  let errors = 0;
  let stored = 0;
  const readPaths = [
    '/api/images/?page_size=50',
    '/api/tasks/',
    `/api/tasks/${taskId}/`,
    '/api/predictions/?page_size=20',
    '/api/folders/',
    '/api/status/',
    '/api/images/days/',
  ];
  const reader = async (n) => {
    for (let i = n; performance.now() < deadline; i++) {
      const started = performance.now();
      try {
        const res = await fetch(server.url + readPaths[i % readPaths.length]);
        await res.arrayBuffer();
        if (res.status >= 500) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - started);
      requests++;
    }
  };
  const uploader = async (n) => {
    for (let i = 0; performance.now() < deadline; i++) {
      const form = new FormData();
      for (let j = 0; j < 5; j++)
        form.append(
          'files',
          new Blob([scenes[(n + i + j) % scenes.length]], { type: 'image/jpeg' }),
          `load_${n}_${i}_${j}.jpg`,
        );
      form.append('check_duplicate', '0');
      try {
        const res = await fetch(`${server.url}/api/images/upload-files/`, { method: 'POST', body: form });
        const body = await res.json();
        if (res.status >= 500) errors++;
        else stored += body.count ?? 0;
      } catch {
        errors++;
      }
      requests++;
    }
  };
  await Promise.all([
    ...Array.from({ length: READERS }, (_, n) => reader(n)),
    ...Array.from({ length: UPLOADERS }, (_, n) => uploader(n)),
  ]);
  latencies.sort((a, b) => a - b);
  const task = await (await fetch(`${server.url}/api/tasks/${taskId}/`)).json();
  figure(bench, 'requests', requests, 'requests', { seconds: SECONDS, readers: READERS, uploaders: UPLOADERS });
  figure(bench, 'errors', errors, 'requests');
  figure(bench, 'reader_p50_ms', percentile(latencies, 50), 'ms');
  figure(bench, 'reader_p95_ms', percentile(latencies, 95), 'ms');
  figure(bench, 'reader_max_ms', latencies[latencies.length - 1] ?? 0, 'ms');
  figure(bench, 'images_uploaded', stored, 'images');
  figure(bench, 'task_progress', task.progress, '%', {
    status: task.status,
    processed: task.processed_count,
    of: task.image_count,
  });
  figure(bench, 'peak_rss_mb', server.peakRss() / 2 ** 20, 'MB');
} finally {
  await server.stop();
  const left = fs
    .readdirSync(path.join(dataDir, 'tmp'), { recursive: true })
    .filter((p) => fs.statSync(path.join(dataDir, 'tmp', p)).isFile());
  figure(bench, 'temp_files_left', left.length, 'files');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
