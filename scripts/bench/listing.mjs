// Listing with 100 000 images: seeds rows straight into the SQLite database of a fresh DATA_DIR,
// then measures p50/p95 of each listing query through HTTP, and the server's cold start (empty and seeded).
// Generated data lives in a temp dir that is removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { figure, LISTING_QUERIES, measureQueries, startServer } from './_server.mjs';

const require = createRequire(path.resolve('apps/server/package.json'));
const Database = require('better-sqlite3');

const IMAGES = Number(process.env.BENCH_IMAGES ?? 100_000);
const FOLDERS = 60;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const bench = 'listing';
const COLD_STARTS = 5;

/** Median over COLD_STARTS starts of spawn -> first 200 from /api/status/, with the server's CPU to get there. */
async function coldStart(dir) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const server = await startServer(dir, { probePath: '/api/status/' });
    wall.push(server.startMs);
    cpu.push(server.cpuSeconds() * 1000);
    await server.stop();
  }
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  return { wall: median(wall), cpu: median(cpu) };
}

const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-listing-'));
try {
  // 1. Let the server create the schema (migrations run at start), then stop it.
  const first = await startServer(dataDir);
  await first.stop();
  const empty = await coldStart(dataDir);
  figure(bench, 'cold_start_empty', empty.wall, 'ms', { images: 0, runs: COLD_STARTS });
  figure(bench, 'cold_start_empty_server_cpu', empty.cpu, 'ms', { images: 0, runs: COLD_STARTS });

  // 2. Seed realistic rows in one transaction.
  const db = new Database(path.join(dataDir, 'cassavascope.db'));
  const sites = ['Wuming', 'Danzhou', 'Nanning', 'Haikou', 'Field trial', 'Greenhouse', '木薯试验田', 'Plot'];
  // name_sort (migration 0013) approximated by the lower-cased name, as for the images below.
  const insertFolder = db.prepare(
    'insert into folders (name, name_key, name_sort, description, created_at) values (?, ?, ?, ?, ?)',
  );
  const insertImage = db.prepare(
    // name_sort (migration 0009) approximated by the lower-cased name: distinct values, as real keys are.
    `insert into images (name, name_lower, name_sort, folder_id, folder_sort, size, format, width, height, sha256, blob_key, thumb_key, created_at, ppd_value, last_prediction)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const start = Date.UTC(2025, 0, 1);
  const folderKeys = [''];
  db.transaction(() => {
    for (let f = 1; f <= FOLDERS; f++) {
      const name = `${sites[f % sites.length]} ${2025 + (f % 2)} batch ${f}`;
      insertFolder.run(name, name.toLowerCase(), name.toLowerCase(), '', new Date(start + f * 86400000).toISOString());
      folderKeys.push(name.toLowerCase());
    }
    for (let i = 1; i <= IMAGES; i++) {
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
      const folder = rand() < 0.15 ? null : 1 + Math.floor(rand() * FOLDERS);
      const format = name.endsWith('.png') ? 'png' : 'jpeg';
      const sha = (i.toString(16).padStart(8, '0') + '0'.repeat(56)).slice(0, 64);
      const created = new Date(
        start + Math.floor((i / IMAGES) * 320 * 86400000) + Math.floor(rand() * 60000),
      ).toISOString();
      const ppd = rand() < 0.3 ? Math.round(rand() * 1200) / 100 : null;
      insertImage.run(
        name,
        name.toLowerCase(),
        name.toLowerCase(),
        folder,
        folderKeys[folder ?? 0],
        800_000 + Math.floor(rand() * 7_000_000),
        format,
        4000,
        3000,
        sha,
        `originals/${sha.slice(0, 2)}/${sha}.jpg`,
        `thumbs/${sha.slice(0, 2)}/${sha}.webp`,
        created,
        ppd,
        ppd === null ? null : ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy',
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  // 3. Cold start with the seeded database (median of COLD_STARTS), then the queries.
  const cold = await coldStart(dataDir);
  figure(bench, 'cold_start', cold.wall, 'ms', { images: IMAGES, runs: COLD_STARTS, probe: '/api/status/' });
  // CPU the server used to get there (start-up plus the first answer, every thread): roughly the wall time on an idle machine.
  figure(bench, 'cold_start_server_cpu', cold.cpu, 'ms', { images: IMAGES, runs: COLD_STARTS });
  const server = await startServer(dataDir);
  await measureQueries(bench, server, LISTING_QUERIES, { runs: RUNS, withCpu: true });
  await server.stop();
} finally {
  if (!process.env.BENCH_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
}
