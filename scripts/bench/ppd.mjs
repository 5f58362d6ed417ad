// PPD engine benchmark: images/s end to end on 4000 x 3000 JPEGs (decode -> segmentation -> all seven WebPs) beside
// the decode-only rate of the same photos, time split by stage, memory over many images, and the ONNX engine's cost per 512 x 512 image (tiny model).
// Prints one JSON line per figure. Env: PPD_BENCH_IMAGES (default 300), PPD_BENCH_WORKERS (default: cores).
// Other engineers' processes share this machine: figures taken while it is busy are pessimistic.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { createEngine } from '@cassavascope/ppd';
import { renderScene, tinyOnnxModelBytes, writeTinyOnnxModel } from '@cassavascope/ppd/synthetic';

const figure = (name, value, unit, extra = {}) =>
  console.log(JSON.stringify({ bench: 'ppd', figure: name, value: Math.round(value * 1000) / 1000, unit, ...extra }));

const total = Number(process.env.PPD_BENCH_IMAGES ?? 300);
const workers = Number(process.env.PPD_BENCH_WORKERS ?? os.availableParallelism());
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ppd-bench-'));

try {
  // Eight distinct photos: scenes rendered at 2000 x 1500, enlarged to 4000 x 3000, JPEG quality 90.
  const photos = [];
  for (let seed = 1; seed <= 8; seed++) {
    const s = renderScene({
      width: 2000,
      height: 1500,
      seed,
      background: ['light', 'dark', 'blue', 'wood', 'cloth'][seed % 5],
    });
    photos.push(
      await sharp(s.rgb, { raw: { width: 2000, height: 1500, channels: 3 } })
        .resize(4000, 3000)
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
  }
  figure('input_jpeg_size', photos.reduce((a, b) => a + b.length, 0) / photos.length / 1e6, 'MB', {
    width: 4000,
    height: 3000,
  });

  // Decode only, the same photos at the same concurrency: the engine's floor (JPEG shrink-on-load to its 1024 px
  // working size, as pipeline/decode-image.ts does), and a full 12 MP decode for scale.
  const decodeRate = async (label, decode) => {
    const n = Math.min(total, 120);
    let k = 0;
    const t0 = performance.now();
    const lane = async () => {
      while (k < n) await decode(photos[k++ % photos.length]);
    };
    await Promise.all(Array.from({ length: workers * 2 }, lane));
    figure(label, n / ((performance.now() - t0) / 1000), 'images/s', { images: n, workers });
  };
  await decodeRate('decode_only_working_size', (jpeg) =>
    sharp(jpeg, { autoOrient: true })
      .resize({ width: 1024, height: 1024, fit: 'inside', fastShrinkOnLoad: true })
      .raw()
      .toBuffer(),
  );
  await decodeRate('decode_only_full_size', (jpeg) => sharp(jpeg, { autoOrient: true }).raw().toBuffer());

  const engine = await createEngine({ workers });
  // warm-up: every worker compiles its code paths once
  await Promise.all(Array.from({ length: workers * 2 }, (_, i) => engine.analyse(photos[i % photos.length])));
  global.gc?.();
  const rssStart = process.memoryUsage().rss;
  let rssMax = rssStart;
  const stages = {};
  let failed = 0;
  let next = 0;
  let done = 0;
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const lane = async () => {
    while (next < total) {
      const i = next++;
      const r = await engine.analyse(photos[i % photos.length]);
      if (r.error_code) failed++;
      for (const [k, v] of Object.entries(r.timings)) stages[k] = (stages[k] ?? 0) + v;
      done++;
      if (done % 50 === 0) rssMax = Math.max(rssMax, process.memoryUsage().rss);
    }
  };
  await Promise.all(Array.from({ length: workers * 2 }, lane));
  const secs = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  await engine.close();
  global.gc?.();
  const rssEnd = process.memoryUsage().rss;
  figure('colour_engine_throughput', total / secs, 'images/s', {
    images: total,
    workers,
    failed,
    outputs: 'cut2 x n, pred x n, overview (WebP)',
  });
  // CPU time is what the photos cost whatever else runs here; cores / cpu-per-image = images/s on an idle machine
  const cpuPerImage = (cpu.user + cpu.system) / 1e6 / total;
  figure('colour_engine_cpu_per_image', cpuPerImage * 1000, 'ms CPU/image', { includes: 'libvips threads' });
  figure('colour_engine_throughput_idle_estimate', workers / cpuPerImage, 'images/s', {
    workers,
    basis: 'CPU time per image',
  });
  figure('colour_engine_latency_mean', ((secs * workers) / total) * 1000, 'ms/image/worker');
  for (const [k, v] of Object.entries(stages)) figure(`stage_${k}`, (v / total) * 1000, 'ms/image');
  figure('rss_start', rssStart / 2 ** 20, 'MiB');
  figure('rss_max', rssMax / 2 ** 20, 'MiB', { images: total });
  figure('rss_end', rssEnd / 2 ** 20, 'MiB');

  // What 15 slices cost: the real tray photo (../shared/real-photos, never copied into the repository), enlarged
  // to 12 MP, against a 3-slice photo of the same size, one worker, CPU time per image.
  const tray = path.resolve(
    path.dirname(new URL(import.meta.url).pathname),
    '../../../shared/real-photos/roots/cbsd_tray_cassava1.jpg',
  );
  if (await fs.stat(tray).catch(() => null)) {
    const trayJpeg = await sharp(tray).resize(4000, 2604).jpeg({ quality: 90 }).toBuffer();
    const three = photos[0];
    const one = await createEngine({ workers: 1 });
    const cost = async (jpeg, n) => {
      await one.analyse(jpeg);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let specimens = 0;
      for (let i = 0; i < n; i++) specimens = (await one.analyse(jpeg)).specimens.length;
      const c = process.cpuUsage(c0);
      return { cpu: (c.user + c.system) / 1e3 / n, wall: (performance.now() - t0) / n, specimens };
    };
    const t15 = await cost(trayJpeg, 20);
    const t3 = await cost(three, 20);
    await one.close();
    figure('tray_15_slices_cpu_per_image', t15.cpu, 'ms CPU/image', {
      specimens: t15.specimens,
      width: 4000,
      height: 2604,
      wall_ms: Math.round(t15.wall),
    });
    figure('three_slices_cpu_per_image', t3.cpu, 'ms CPU/image', {
      specimens: t3.specimens,
      width: 4000,
      height: 3000,
      wall_ms: Math.round(t3.wall),
    });
  }

  // ONNX: the raw network call, then the whole pipeline, on 512 x 512 photos with the tiny model.
  const session = await ort.InferenceSession.create(tinyOnnxModelBytes(512), { intraOpNumThreads: 1 });
  const input = new ort.Tensor('float32', new Float32Array(3 * 512 * 512).fill(0.5), [1, 3, 512, 512]);
  await session.run({ input });
  const runs = 30;
  let t = performance.now();
  for (let i = 0; i < runs; i++) await session.run({ input });
  figure('onnx_tiny_inference', (performance.now() - t) / runs, 'ms/512x512', { threads: 1 });
  await session.release();

  const modelPath = path.join(tmp, 'tiny.onnx');
  await writeTinyOnnxModel(modelPath, 512);
  const onnxEngine = await createEngine({ modelPath, workers: 1 });
  const small = [];
  for (let seed = 1; seed <= 4; seed++) {
    const s = renderScene({ width: 512, height: 512, seed, slices: 1, background: 'blue' });
    small.push(
      await sharp(s.rgb, { raw: { width: 512, height: 512, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
  }
  for (const p of small) await onnxEngine.analyse(p);
  t = performance.now();
  for (let i = 0; i < runs; i++) await onnxEngine.analyse(small[i % small.length]);
  figure('onnx_engine_end_to_end', (performance.now() - t) / runs, 'ms/512x512 image', {
    workers: 1,
    note: 'network runs once for specimens and once per cut',
  });
  await onnxEngine.close();
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}
