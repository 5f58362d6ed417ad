// Scale-out on PostgreSQL (a throwaway cluster from scripts/scale-out/services.mjs):
// 1. the 1 000-image prediction task worked by 1 and then by 2 `worker-main` processes (WORKERS=1 each,
//    each pinned to its own core with taskset when available), the API process working no jobs:
//    images/s from POST to completed, and the speed-up;
// 2. image listing latency (p50/p95 per query) with 100 000 images in PostgreSQL.
// Blobs live in a shared local DATA_DIR here (all processes on one machine), so the figures measure the
// queue and the database, not an S3 emulator competing for the same two cores. Everything is removed at the end.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../scale-out/services.mjs';
import { figure, LISTING_QUERIES, measureQueries, startServer, startWorker, uploadBenchImages } from './_server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(path.join(root, 'apps/server/package.json'));
const pg = require('pg');
const { renderSceneJpeg } = await import(path.join(root, 'packages/ppd/dist/synthetic/slice-scene.js'));

const IMAGES = Number(process.env.BENCH_IMAGES ?? 1000);
const LISTING_IMAGES = Number(process.env.BENCH_LISTING_IMAGES ?? 100_000);
const WIDTH = Number(process.env.BENCH_WIDTH ?? 640);
const HEIGHT = Math.round((WIDTH * 3) / 4);
const UNIQUE = 24;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const bench = 'scale';
const canPin = spawnSync('taskset', ['--version']).status === 0;
const cores = os.availableParallelism();

async function createDatabase(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function api(server, method, url, body) {
  const res = await fetch(server.url + url, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function runTask(server, ids, name) {
  const started = performance.now();
  const task = await api(server, 'POST', '/api/tasks/prediction/', { name, image_ids: ids, split_count: 32 });
  for (;;) {
    const t = await api(server, 'GET', `/api/tasks/${task.id}/`);
    if (t.status !== 'running') return { seconds: (performance.now() - started) / 1000, task: t };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function workerThroughput(pgServer) {
  const databaseUrl = await createDatabase(pgServer.url, 'bench_workers');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-scale-'));
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WORKER_PROCESSES: '0', API_WORKS_JOBS: 'false' };
  const server = await startServer(dataDir, { env });
  try {
    const scenes = [];
    for (let i = 0; i < UNIQUE; i++)
      scenes.push((await renderSceneJpeg({ width: WIDTH, height: HEIGHT, seed: 1000 + i })).jpeg);
    const ids = await uploadBenchImages(server.url, scenes, IMAGES);
    const rates = {};
    const cpuPerImage = {};
    for (const count of [1, 2]) {
      const workers = [];
      for (let i = 0; i < count; i++) workers.push(await startWorker({ ...env, WORKERS: '1' }, { core: i % cores }));
      try {
        await runTask(server, ids.slice(0, 4 * count), `warm-up ${count}`); // engine threads warm
        const cpuBefore = workers.reduce((sum, w) => sum + w.cpu(), 0);
        const { seconds, task } = await runTask(server, ids, `${count} worker(s)`);
        const cpu = workers.reduce((sum, w) => sum + w.cpu(), 0) - cpuBefore;
        rates[count] = IMAGES / seconds;
        cpuPerImage[count] = cpu / IMAGES;
        // Load-independent: CPU the workers spent per image, and how busy their cores were (1 = the whole
        // core for the whole run). Equal CPU per image with 1 and 2 workers means sharing a task adds no work.
        figure(bench, `workers_${count}_cpu_ms_per_image`, (cpu / IMAGES) * 1000, 'ms');
        figure(bench, `workers_${count}_core_utilisation`, cpu / (seconds * count), 'cores/worker');
        figure(bench, `workers_${count}_images_per_s`, rates[count], 'images/s', {
          images: IMAGES,
          seconds: Math.round(seconds * 10) / 10,
          status: task.status,
          failed: task.failed_count,
          pinned: canPin,
          size: `${WIDTH}x${HEIGHT}`,
        });
      } finally {
        for (const w of workers) await w.stop();
      }
    }
    figure(bench, 'workers_2_vs_1', rates[2] / rates[1], 'x', { target: 1.8 });
    // The same ratio from CPU per image, i.e. with each worker owning its core (what the wall-clock ratio
    // converges to on an otherwise idle machine); load on the machine does not change it.
    if (cpuPerImage[1] > 0 && cpuPerImage[2] > 0)
      figure(bench, 'workers_2_vs_1_cpu_bound', (2 * cpuPerImage[1]) / cpuPerImage[2], 'x', { target: 1.8 });
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The same realistic rows as the embedded listing bench, in PostgreSQL. */
async function seedListing(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const sites = ['Wuming', 'Danzhou', 'Nanning', 'Haikou', 'Field trial', 'Greenhouse', '木薯试验田', 'Plot'];
  const FOLDERS = 60;
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const start = Date.UTC(2025, 0, 1);
  const folderKeys = [''];
  const folderIds = [null];
  for (let f = 1; f <= FOLDERS; f++) {
    const name = `${sites[f % sites.length]} ${2025 + (f % 2)} batch ${f}`;
    // name_sort (migration 0013) approximated by the lower-cased name.
    const r = await client.query(
      'insert into folders (name, name_key, name_sort, description, created_at) values ($1, $2, $3, $4, $5) returning id',
      [name, name.toLowerCase(), name.toLowerCase(), '', new Date(start + f * 86400000).toISOString()],
    );
    folderKeys.push(name.toLowerCase());
    folderIds.push(r.rows[0].id);
  }
  const cols = [
    'name',
    'name_lower',
    'folder_id',
    'folder_sort',
    'size',
    'format',
    'width',
    'height',
    'sha256',
    'blob_key',
    'thumb_key',
    'created_at',
    'ppd_value',
    'last_prediction',
  ];
  const BATCH = 1000;
  for (let first = 1; first <= LISTING_IMAGES; first += BATCH) {
    const values = [];
    const rows = [];
    for (let i = first; i < Math.min(LISTING_IMAGES + 1, first + BATCH); i++) {
      const kind = i % 5;
      const name =
        kind === 0
          ? `IMG_${String(i).padStart(6, '0')}.JPG`
          : kind === 1
            ? `plot${i % 300}_rep${i % 4}_${i}.jpg`
            : kind === 2
              ? `木薯叶_${i}.jpg`
              : kind === 3
                ? `DSC${String(i).padStart(5, '0')}.jpeg`
                : `leaf-${(i * 7919) % 100000}-${i}.png`;
      const f = rand() < 0.15 ? 0 : 1 + Math.floor(rand() * FOLDERS);
      const sha = (i.toString(16).padStart(8, '0') + '0'.repeat(56)).slice(0, 64);
      const created = new Date(
        start + Math.floor((i / LISTING_IMAGES) * 320 * 86400000) + Math.floor(rand() * 60000),
      ).toISOString();
      const ppd = rand() < 0.3 ? Math.round(rand() * 1200) / 100 : null;
      const row = [
        name,
        name.toLowerCase(),
        folderIds[f],
        folderKeys[f],
        800_000 + Math.floor(rand() * 7_000_000),
        name.endsWith('.png') ? 'png' : 'jpeg',
        4000,
        3000,
        sha,
        `originals/${sha.slice(0, 2)}/${sha}.jpg`,
        `thumbs/${sha.slice(0, 2)}/${sha}.webp`,
        created,
        ppd,
        ppd === null ? null : ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy',
      ];
      rows.push(`(${row.map((_, k) => `$${values.length + k + 1}`).join(', ')})`);
      values.push(...row);
    }
    await client.query(`insert into images (${cols.join(', ')}) values ${rows.join(', ')}`, values);
  }
  // After a bulk load: statistics for the planner and the visibility map for index-only counts, as
  // autovacuum would give them a little later.
  await client.query('vacuum analyze');
  await client.end();
}

async function listingLatency(pgServer) {
  const databaseUrl = await createDatabase(pgServer.url, 'bench_listing');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-scale-list-'));
  const env = { DATABASE_URL: databaseUrl, WORKER_PROCESSES: '0' };
  try {
    const first = await startServer(dataDir, { env }); // migrations create the schema
    await first.stop();
    await seedListing(databaseUrl);
    const server = await startServer(dataDir, { env });
    try {
      const worst = await measureQueries(bench, server, LISTING_QUERIES, {
        runs: RUNS,
        prefix: 'listing_pg_',
        extra: { images: LISTING_IMAGES },
      });
      figure(bench, 'listing_pg_worst_p95', worst, 'ms', { images: LISTING_IMAGES, target: 25 });
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const pgServer = await startPostgres();
try {
  if (process.env.BENCH_SKIP_WORKERS !== '1') await workerThroughput(pgServer);
  if (process.env.BENCH_SKIP_LISTING !== '1') await listingLatency(pgServer);
} finally {
  pgServer.stop();
}
