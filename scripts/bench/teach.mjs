// Lab-model benchmark (issue 23): training time for 20 labelled photos, images/s scoring 12 MP 3-slice photos
// with a lab model beside the default engine's, and default vs lab-model MAE on real labelled CBSD slices the
// model did not train on: models trained on 2, 3 and 5 crops drawn at random from the committed training part
// (packages/ppd/src/evaluate/cbsd-labelled-split.ts), from the crops' whole masks and from strokes painted inside
// them (what a researcher paints), each scored on the 45 held-out crops. Prints one JSON line per figure.
// Env: TEACH_BENCH_IMAGES (default 120), TEACH_BENCH_WORKERS (default: cores), TEACH_BENCH_DRAWS (default 8),
// TEACH_BENCH_PARTS (default all: throughput,accuracy,training). Needs ../shared/real-photos for the CBSD
// figures (skipped without it). Other processes on this machine make the time figures pessimistic.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { countLabels, createEngine, labelsPpd, readCbsdMask, trainLabModel } from '@cassavascope/ppd';
import { renderScene, seededRandom, strokeLabels } from '@cassavascope/ppd/synthetic';

const figure = (name, value, unit, extra = {}) =>
  console.log(JSON.stringify({ bench: 'teach', figure: name, value: Math.round(value * 1000) / 1000, unit, ...extra }));

const total = Number(process.env.TEACH_BENCH_IMAGES ?? 120);
const workers = Number(process.env.TEACH_BENCH_WORKERS ?? os.availableParallelism());
const draws = Number(process.env.TEACH_BENCH_DRAWS ?? 8);
const parts = new Set((process.env.TEACH_BENCH_PARTS ?? 'throughput,accuracy,training').split(','));
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cbsdDir = path.resolve(root, '../shared/real-photos/cbsd-labelled');
const { CBSD_HELDOUT, CBSD_TRAIN } = await import(path.join(root, 'packages/ppd/dist/evaluate/cbsd-labelled-split.js'));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const sd = (xs) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const r3 = (v) => Math.round(v * 1000) / 1000;

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
  const errors = {};
  const cpu = process.cpuUsage();
  const started = performance.now();
  const lane = async () => {
    while (next < total) {
      const r = await engine.analyse(photos[next++ % photos.length], {}, 'full', options);
      if (r.error_code) {
        failed++;
        errors[r.error_code] = (errors[r.error_code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: workers * 2 }, lane));
  const used = process.cpuUsage(cpu);
  // CPU time is what the photos cost whatever else runs here: workers / cpu-per-image = images/s when idle
  const cpuPerImage = (used.user + used.system) / 1e6 / total;
  return {
    rate: total / ((performance.now() - started) / 1000),
    failed,
    errors,
    idle: workers / cpuPerImage,
    cpuPerImage,
  };
}

/** Label values of a photo from the default engine's own proposal (for timing: what the labels say does not matter). */
async function proposalLabels(engine, jpeg) {
  const r = await engine.analyse(jpeg, {}, 'proposal');
  const { data, info } = await sharp(r.images.proposal).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, values: new Uint8Array(data) };
}

const haveCbsd = fs.existsSync(cbsdDir);
const cbsdIds = haveCbsd
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

/** `k` ids of `ids` drawn at random (seeded: the same draws every run). */
function draw(ids, k, seed) {
  const random = seededRandom(seed);
  const order = [...ids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, k);
}

const engine = await createEngine({ workers });
try {
  const photos = [];
  if (parts.has('throughput') || parts.has('training'))
    for (let seed = 1; seed <= 8; seed++) photos.push(await photo12mp(seed));

  if (parts.has('throughput')) {
    // a lab model for the throughput figures: trained on 4 of the 12 MP photos, labelled by the engine's proposal
    const quick = [];
    for (let i = 0; i < 4; i++)
      quick.push({ id: `quick-${i}`, image: photos[i], labels: await proposalLabels(engine, photos[i]) });
    const synthetic = await trainLabModel(quick, { name: 'bench 12 MP' });

    // scoring throughput on 12 MP 3-slice photos: default engine, then with the lab model trained above
    const base = await throughput(engine, photos, {});
    figure('default_engine_throughput', base.rate, 'images/s', {
      images: total,
      workers,
      failed: base.failed,
      errors: base.errors,
    });
    figure('default_engine_throughput_idle_estimate', base.idle, 'images/s', {
      cpu_ms_per_image: Math.round(base.cpuPerImage * 1000),
    });
    const lab = await throughput(engine, photos, { labModel: { id: 'bench', file: synthetic.file } });
    figure('lab_model_throughput', lab.rate, 'images/s', {
      images: total,
      workers,
      failed: lab.failed,
      errors: lab.errors,
    });
    figure('lab_model_throughput_idle_estimate', lab.idle, 'images/s', {
      cpu_ms_per_image: Math.round(lab.cpuPerImage * 1000),
    });
  }

  // accuracy: models trained on k crops drawn from the training part, both engines scored on the held-out part
  if (parts.has('accuracy') && haveCbsd) {
    const heldout = await Promise.all(CBSD_HELDOUT.map((f) => cbsd(f.replace(/\.png$/, ''))));
    const pool = await Promise.all(CBSD_TRAIN.map((f) => cbsd(f.replace(/\.png$/, ''))));
    const truth = heldout.map(photoLabelsPpd);
    const errors = async (options) => {
      const rs = await Promise.all(heldout.map((p) => engine.analyse(Buffer.from(p.image), {}, 'full', options)));
      return rs.map((r, i) => (r.ppd_value ?? 0) - truth[i]);
    };
    const base = await errors({});
    // the two groups: held-out crops the default reads more than 0.5 off, and those it reads right
    const off = base.map((e) => Math.abs(e) > 0.5);
    const mae = (e, where = () => true) => mean(e.filter((_, i) => where(i)).map(Math.abs));
    const baseMae = mae(base);
    figure('cbsd_default_mae', baseMae, 'PPD', {
      photos: heldout.length,
      bias: r3(mean(base)),
      default_off_photos: off.filter(Boolean).length,
      mae_where_default_off: r3(mae(base, (i) => off[i])),
      mae_where_default_right: r3(mae(base, (i) => !off[i])),
    });
    for (const labels of ['masks', 'strokes']) {
      for (const k of [2, 3, 5]) {
        const runs = [];
        for (let d = 0; d < draws; d++) {
          const ids = draw(
            pool.map((p) => p.id),
            k,
            1000 * k + d,
          );
          const train = pool
            .filter((p) => ids.includes(p.id))
            .map((p) => (labels === 'strokes' ? { ...p, labels: strokeLabels(p.labels, { classes: [1, 2, 3] }) } : p));
          const model = await trainLabModel(train, { name: `CBSD ${k} ${labels} ${d}`, trees: 24 });
          const e = await errors({ labModel: { id: `cbsd-${labels}-${k}-${d}`, file: model.file } });
          runs.push({ all: mae(e), bias: mean(e), off: mae(e, (i) => off[i]), right: mae(e, (i) => !off[i]) });
        }
        const col = (key) => runs.map((r) => r[key]);
        figure('cbsd_lab_model_mae', mean(col('all')), 'PPD', {
          labels,
          trained_on: k,
          draws,
          sd: r3(sd(col('all'))),
          min: r3(Math.min(...col('all'))),
          max: r3(Math.max(...col('all'))),
          bias: r3(mean(col('bias'))),
          draws_worse_than_default: runs.filter((r) => r.all > baseMae).length,
          mae_where_default_off: r3(mean(col('off'))),
          mae_where_default_right: r3(mean(col('right'))),
          default_mae: r3(baseMae),
        });
      }
    }
  }
  // training time: 20 labelled 12 MP photos (labels from the engine's proposal), and 20 real labelled CBSD slices
  if (parts.has('training')) {
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
  }
} finally {
  await engine.close();
}
