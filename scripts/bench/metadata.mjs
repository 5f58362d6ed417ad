// Sample metadata at scale (issue 17): 100 000 images, each with genotype/rep/dah/root fields and one scored
// result, seeded straight into the SQLite database of a fresh DATA_DIR. Measures p50/p95 through HTTP of the
// meta.FIELD=VALUE filters (images, results) and the group summary (by genotype, by genotype x dah, filtered).
// Temp data is removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { figure, measureQueries, startServer } from './_server.mjs';

const require = createRequire(path.resolve('apps/server/package.json'));
const Database = require('better-sqlite3');

const IMAGES = Number(process.env.BENCH_IMAGES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const GENOTYPES = 200;
const DAHS = [0, 1, 3, 7, 14];
const bench = 'metadata';

/** Specimens as the engine stores them (a few hundred bytes each), so result rows are as wide as real ones. */
function specimensJson(subs, i) {
  return JSON.stringify(
    subs.map((ppd, k) => ({
      index: k + 1,
      kind: 'root_slice',
      box: [100 + k * 900, 800, 820, 810],
      ppd,
      engine_ppd: ppd,
      confidence: 0.91,
      needs_review: false,
      excluded: false,
      corrected: false,
      source: 'engine',
      cut_key: `results/1/${i}/cut2_${k + 1}.webp`,
      pred_key: `results/1/${i}/pred_${k + 1}.webp`,
    })),
  );
}

// BENCH_KEEP_DIR=1 keeps the seeded DATA_DIR (its path goes to stderr) for looking at query plans.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-metadata-'));
try {
  // 1. The server creates the schema (migrations run at start).
  const first = await startServer(dataDir);
  await first.stop();

  // 2. IMAGES images with four fields each and one result each (a twentieth failed), in one transaction.
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
       values ('Metadata bench', 'metadata bench', 'prediction', 'completed', 'deeplabv3plus_resnet101', 'deeplabv3plus_resnet101', '[]', ?, ?, ?, ?, ?)`,
    )
    .run(IMAGES, params, now, now, now).lastInsertRowid;
  const insertImage = db.prepare(
    `insert into images (name, name_lower, name_sort, folder_id, folder_sort, size, format, width, height, sha256, blob_key, thumb_key, created_at)
     values (?, ?, ?, null, '', 2000000, 'jpeg', 4000, 3000, ?, ?, ?, ?)`,
  );
  const insertField = db.prepare(
    'insert into image_fields (image_id, field, num_value, text_value) values (?, ?, ?, ?)',
  );
  const insertResult = db.prepare(
    `insert into results (task_id, image_id, image_name, image_name_lower, ppd_value, sub_ppd_values, prediction, confidence,
       oss_key, vis_keys, error_code, error_message, processing_time, created_at, engine_ppd_value, specimen_count, counted_specimens, specimens)
     values (?, ?, ?, ?, ?, ?, ?, ?, null, '{}', ?, ?, 0.2, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= IMAGES; i++) {
      const genotype = `TME${(i * 7) % GENOTYPES}`;
      const rep = 1 + (i % 4);
      const dah = DAHS[i % DAHS.length];
      const name = `${genotype}_${rep}_${dah}d_R${1 + (i % 3)}_${i}.jpg`;
      const sha = (i.toString(16).padStart(8, '0') + 'c'.repeat(56)).slice(0, 64);
      const id = insertImage.run(
        name,
        name.toLowerCase(),
        name.toLowerCase(),
        sha,
        `originals/${sha.slice(0, 2)}/${sha}.jpg`,
        `thumbs/${sha.slice(0, 2)}/${sha}.webp`,
        now,
      ).lastInsertRowid;
      insertField.run(id, 'genotype', null, genotype);
      insertField.run(id, 'rep', rep, null);
      insertField.run(id, 'dah', dah, null);
      insertField.run(id, 'root', null, `R${1 + (i % 3)}`);
      const failed = i % 20 === 0;
      const subs = failed ? [] : [((i * 7) % 1000) / 100, ((i * 13) % 1000) / 100, ((i * 17) % 1000) / 100];
      const ppd = failed ? null : Math.round((subs.reduce((a, b) => a + b, 0) / 3) * 100) / 100;
      insertResult.run(
        taskId,
        id,
        name,
        name.toLowerCase(),
        ppd,
        JSON.stringify(subs),
        ppd === null ? null : ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy',
        failed ? null : 0.9,
        failed ? 'no_specimen_found' : null,
        failed ? 'nothing found' : null,
        now,
        ppd,
        subs.length,
        subs.length,
        specimensJson(subs, i),
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  const server = await startServer(dataDir);
  try {
    const worst = await measureQueries(
      bench,
      server,
      {
        groups_by_genotype: `/api/predictions/groups/?by=genotype&task_id=${taskId}`,
        groups_by_genotype_dah: `/api/predictions/groups/?by=genotype,dah`,
        groups_filtered: `/api/predictions/groups/?by=dah&meta.genotype=TME7`,
        // As the By group views ask: with each result's value (none past 5000 results; a dot each under it).
        groups_by_genotype_values: `/api/predictions/groups/?by=genotype&task_id=${taskId}&values=true`,
        groups_filtered_values: `/api/predictions/groups/?by=dah&meta.genotype=TME7&values=true`,
        // The null group alone (meta_missing): every result has a genotype, so it is empty.
        groups_missing_genotype: `/api/predictions/groups/?by=genotype&meta_missing=genotype`,
        images_meta_filter: '/api/images/?meta.genotype=TME7&meta.dah=7',
        results_meta_filter: `/api/predictions/?task_id=${taskId}&meta.genotype=TME7`,
        // Images grouped by a field (issue 17): the groups, the first page and a deep page (position 60 000).
        images_groups_by_genotype: '/api/images/groups/?group_by=genotype',
        images_by_genotype_page1: '/api/images/?group_by=genotype&page_size=200',
        images_by_genotype_deep: '/api/images/?group_by=genotype&page_size=200&page=301',
        images_by_genotype_name_deep: '/api/images/?group_by=genotype&ordering=name&page_size=200&page=301',
        // Filtered by a field, and grouped by a field no image has (every image in the "no value" group).
        images_by_dah_filtered: '/api/images/?group_by=dah&meta.genotype=TME7&page_size=200',
        images_by_missing_field_deep: '/api/images/?group_by=plot&page_size=200&page=301',
      },
      { runs: RUNS, withCpu: true, extra: { images: IMAGES } },
    );
    figure(bench, 'worst_p95', worst, 'ms', { images: IMAGES, results: IMAGES });
  } finally {
    await server.stop();
  }
} finally {
  if (process.env.BENCH_KEEP_DIR === '1') process.stderr.write(`kept ${dataDir}\n`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}
