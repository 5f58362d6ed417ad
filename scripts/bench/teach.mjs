// Lab-model benchmark (issue 23): training time for 20 labelled photos, images/s scoring 12 MP 3-slice photos
// with a lab model beside the default engine's, and default vs lab-model MAE on real labelled CBSD slices the
// model did not train on (trained on 2-5 of them). Prints one JSON line per figure.
// Env: TEACH_BENCH_IMAGES (default 120), TEACH_BENCH_WORKERS (default: cores). Needs ../shared/real-photos for
// the CBSD figures (skipped without it). Other processes on this machine make the figures pessimistic.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { countLabels, createEngine, labelsPpd, readCbsdMask, trainLabModel } from '@cassavascope/ppd';
import { renderScene } from '@cassavascope/ppd/synthetic';

const figure = (name, value, unit, extra = {}) =>
  console.log(JSON.stringify({ bench: 'teach', figure: name, value: Math.round(value * 1000) / 1000, unit, ...extra }));

const total = Number(process.env.TEACH_BENCH_IMAGES ?? 120);
const workers = Number(process.env.TEACH_BENCH_WORKERS ?? os.availableParallelism());
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cbsdDir = path.resolve(root, '../shared/real-photos/cbsd-labelled');

/** 12 MP photos of 3 slices, as `npm run bench ppd` makes them. */
async function photo12mp(seed) {
  const s = renderScene({
    width: 2000,
    height: 1500,
    seed,
    slices: 3,
    background: ['light', 'dark', 'blue', 'wood', 'cloth'][seed % 5],
  });
  return sharp(s.rgb, { raw: { width: 2000, height: 1500, channels: 3 } })
    .resize(4000, 3000)
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function throughput(engine, photos, options) {
  await Promise.all(
    Array.from({ length: workers * 2 }, (_, i) => engine.analyse(photos[i % photos.length], {}, 'full', options)),
  );
  let next = 0;
  let failed = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const lane = async () => {
    while (next < total) {
      const r = await engine.analyse(photos[next++ % photos.length], {}, 'full', options);
      if (r.error_code) failed++;
    }
  };
  await Promise.all(Array.from({ length: workers * 2 }, lane));
  const used = process.cpuUsage(cpu);
  // CPU time is what the photos cost whatever else runs here: workers / cpu-per-image = images/s when idle
  const cpuPerImage = (used.user + used.system) / 1e6 / total;
  return { rate: total / ((performance.now() - started) / 1000), failed, idle: workers / cpuPerImage, cpuPerImage };
}

/** Label values of a photo from the default engine's own proposal (for timing: what the labels say does not matter). */
async function proposalLabels(engine, jpeg) {
  const r = await engine.analyse(jpeg, {}, 'proposal');
  const { data, info } = await sharp(r.images.proposal).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, values: new Uint8Array(data) };
}

const cbsdIds = fs.existsSync(cbsdDir)
  ? fs
      .readdirSync(cbsdDir)
      .filter((f) => /^cbsd_\d+\.png$/.test(f))
      .map((f) => f.slice(0, -4))
      .sort()
  : [];
const cbsd = async (id) => ({
  id,
  image: fs.readFileSync(path.join(cbsdDir, `${id}.png`)),
  labels: await readCbsdMask(path.join(cbsdDir, `${id}_mask.png`)),
});
/** PPD of a photo's labels (the package's own rule, as training reports it). */
const photoLabelsPpd = (p) => labelsPpd(countLabels(p.labels.values));

const engine = await createEngine({ workers });
try {
  const photos = [];
  for (let seed = 1; seed <= 8; seed++) photos.push(await photo12mp(seed));

  // a lab model for the throughput figures: trained on 4 of the 12 MP photos, labelled by the engine's proposal
  const quick = [];
  for (let i = 0; i < 4; i++)
    quick.push({ id: `quick-${i}`, image: photos[i], labels: await proposalLabels(engine, photos[i]) });
  const synthetic = await trainLabModel(quick, { name: 'bench 12 MP' });

  // scoring throughput on 12 MP 3-slice photos: default engine, then with the lab model trained above
  const base = await throughput(engine, photos, {});
  figure('default_engine_throughput', base.rate, 'images/s', { images: total, workers, failed: base.failed });
  figure('default_engine_throughput_idle_estimate', base.idle, 'images/s', {
    cpu_ms_per_image: Math.round(base.cpuPerImage * 1000),
  });
  const lab = await throughput(engine, photos, { labModel: { id: 'bench', file: synthetic.file } });
  figure('lab_model_throughput', lab.rate, 'images/s', { images: total, workers, failed: lab.failed });
  figure('lab_model_throughput_idle_estimate', lab.idle, 'images/s', {
    cpu_ms_per_image: Math.round(lab.cpuPerImage * 1000),
  });

  // accuracy: train on the first k CBSD slices, score every other labelled slice with both engines
  if (cbsdIds.length > 10) {
    const rest = await Promise.all(cbsdIds.slice(5).map(cbsd));
    const truth = rest.map(photoLabelsPpd);
    const readAll = async (options) =>
      Promise.all(rest.map((p) => engine.analyse(Buffer.from(p.image), {}, 'full', options)));
    const mae = (results) =>
      results.reduce((s, r, i) => s + Math.abs((r.ppd_value ?? 0) - truth[i]), 0) / results.length;
    const defaults = await readAll({});
    figure('cbsd_default_mae', mae(defaults), 'PPD', {
      photos: rest.length,
      refused: defaults.filter((r) => r.error_code).length,
    });
    for (const k of [2, 3, 5]) {
      const model = await trainLabModel(await Promise.all(cbsdIds.slice(0, k).map(cbsd)), { name: `CBSD ${k}` });
      const results = await readAll({ labModel: { id: `cbsd-${k}`, file: model.file } });
      figure('cbsd_lab_model_mae', mae(results), 'PPD', {
        trained_on: k,
        photos: rest.length,
        refused: results.filter((r) => r.error_code).length,
      });
    }
  }
  // training time: 20 labelled 12 MP photos (labels from the engine's proposal), and 20 real labelled CBSD slices
  const labelled = [];
  for (let i = 0; i < 20; i++) {
    const image = i < 8 ? photos[i] : await photo12mp(100 + i);
    labelled.push({ id: `synthetic-${i}`, image, labels: await proposalLabels(engine, image) });
  }
  let started = performance.now();
  let cpu = process.cpuUsage();
  const twenty = await trainLabModel(labelled, { name: 'bench 12 MP x 20' });
  let used = process.cpuUsage(cpu);
  figure('train_20_photos_12mp', (performance.now() - started) / 1000, 's', {
    cpu_seconds: Math.round((used.user + used.system) / 1e5) / 10,
    validation: '5-fold by photo',
    model_file_kb: Math.round(twenty.file.length / 1024),
  });
  if (cbsdIds.length >= 20) {
    const real = await Promise.all(cbsdIds.slice(0, 20).map(cbsd));
    started = performance.now();
    cpu = process.cpuUsage();
    const r = await trainLabModel(real, { name: 'bench CBSD 20' });
    used = process.cpuUsage(cpu);
    figure('train_20_photos_cbsd', (performance.now() - started) / 1000, 's', {
      cpu_seconds: Math.round((used.user + used.system) / 1e5) / 10,
      model_file_kb: Math.round(r.file.length / 1024),
      cv_ppd_mae: Math.round(r.metrics.ppd_mae * 100) / 100,
      cv_baseline_ppd_mae: Math.round(r.metrics.baseline_ppd_mae * 100) / 100,
    });
  }
} finally {
  await engine.close();
}
