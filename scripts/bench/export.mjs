// CSV export of 100 000 results: rows are seeded straight into the SQLite database of a fresh DATA_DIR
// (the engine is not what this measures), then GET /api/predictions/export/ is read to the end.
// Figures: seconds, the server's peak RSS during the export, the file size. Temp data is removed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { figure, startServer } from './_server.mjs';

const require = createRequire(path.resolve('apps/server/package.json'));
const Database = require('better-sqlite3');

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const bench = 'export';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-export-'));
try {
  // 1. The server creates the schema (migrations run at start).
  const first = await startServer(dataDir);
  await first.stop();

  // 2. One finished task with ROWS results (a tenth of them failed rows), in one transaction.
  const db = new Database(path.join(dataDir, 'cassavascope.db'));
  const now = new Date().toISOString();
  const params = JSON.stringify({
    threshold: 0.5,
    min_size: 100,
    method: 'post',
    use_tta: false,
    morph_kernel_size: 5,
    morph_iterations: 1,
    overlay_opacity: 0.3,
    split_count: 32,
  });
  const taskId = db
    .prepare(
      `insert into tasks (name, name_lower, type, status, algorithm, model_type, image_ids, image_count, parameters, created_at, updated_at, completed_at)
       values ('Export bench', 'export bench', 'prediction', 'completed', 'deeplabv3plus_resnet101', 'deeplabv3plus_resnet101', '[]', ?, ?, ?, ?, ?)`,
    )
    .run(ROWS, params, now, now, now).lastInsertRowid;
  const insert = db.prepare(
    `insert into results (task_id, image_id, image_name, image_name_lower, ppd_value, sub_ppd_values, prediction, confidence,
       oss_key, vis_keys, error_code, error_message, processing_time, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= ROWS; i++) {
      const failed = i % 10 === 0;
      const subs = failed ? [] : [((i * 7) % 1000) / 100, ((i * 13) % 1000) / 100, ((i * 17) % 1000) / 100];
      const ppd = failed ? null : Math.round((subs.reduce((a, b) => a + b, 0) / 3) * 100) / 100;
      const name = i % 3 === 0 ? `木薯切片_${i}.jpg` : `plot${i % 300}_rep${i % 4}_${i}.jpg`;
      const keys = failed
        ? {}
        : Object.fromEntries(
            ['cut2_1', 'cut2_2', 'cut2_3', 'pred_1', 'pred_2', 'pred_3'].map((k) => [
              k,
              `results/${taskId}/${i}/${k}.webp`,
            ]),
          );
      insert.run(
        taskId,
        i,
        name,
        name.toLowerCase(),
        ppd,
        JSON.stringify(subs),
        ppd === null ? null : ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy',
        failed ? null : 0.9,
        failed ? null : `results/${taskId}/${i}/overlay.webp`,
        JSON.stringify(keys),
        failed ? 'no_specimen_found' : null,
        failed ? 'no specimen stands out from the background' : null,
        0.2,
        now,
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  // 3. The export, read to the end as a browser download would.
  const server = await startServer(dataDir);
  try {
    server.resetPeak();
    const rssBefore = server.peakRss();
    const started = performance.now();
    const res = await fetch(`${server.url}/api/predictions/export/?task_id=${taskId}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    if (lines !== ROWS + 1) throw new Error(`expected ${ROWS + 1} lines, got ${lines}`);
    figure(bench, 'export_seconds', seconds, 's', { rows: ROWS });
    figure(bench, 'export_rows_per_s', ROWS / seconds, 'rows/s');
    figure(bench, 'export_size', bytes / 1048576, 'MB');
    figure(bench, 'server_rss_before_export', rssBefore / 1048576, 'MB');
    figure(bench, 'server_peak_rss_during_export', server.peakRss() / 1048576, 'MB');
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
