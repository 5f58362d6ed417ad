// Ingest: a ZIP of 1 000 camera-sized JPEGs (4000x3000, ~3 MB, varied content) from POST to fully
// stored with thumbnails (seconds, images/s, MB/s, server peak RSS), then 200 more JPEGs sent as
// multi-file uploads in batches of 20 (images/s). The real server runs as a child process; its RSS
// is sampled from /proc. Generated data lives in a temp dir that is removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pipeline } from 'node:stream/promises';
import { figure, startServer } from './_server.mjs';

const require = createRequire(path.resolve('apps/server/package.json'));
const sharp = require('sharp');
const yazl = require('yazl');

const ZIP_IMAGES = Number(process.env.BENCH_ZIP_IMAGES ?? 1000);
const MULTI_IMAGES = Number(process.env.BENCH_MULTI_IMAGES ?? 200);
const BATCH = 20;
const DISTINCT = 16; // distinct pictures; each is reused with a unique JPEG comment, so every file has its own bytes
const bench = 'ingest';

/** Sensor-like noise, made once and tiled over every photo (generating 12 MP of noise per photo is slow). */
const noiseTile = await sharp({
  create: { width: 512, height: 512, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 17 } },
})
  .png({ compressionLevel: 0 })
  .toBuffer();

/** A 4000x3000 photo-like JPEG: seeded colours and shapes plus noise (~3 MB). */
async function basePhoto(seed) {
  const c = (k) => ({
    r: (seed * 67 + k * 40) % 256,
    g: (seed * 131 + 50 + k * 20) % 256,
    b: (seed * 29 + 100 + k * 10) % 256,
  });
  const blocks = Array.from({ length: 6 }, (_, k) => ({
    input: {
      create: {
        width: 500 + ((seed * 97 + k * 211) % 1200),
        height: 400 + ((seed * 53 + k * 149) % 900),
        channels: 3,
        background: c(k + 1),
      },
    },
    left: (seed * 313 + k * 587) % 2400,
    top: (seed * 191 + k * 379) % 1900,
  }));
  const shapes = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: c(0) } })
    .composite(blocks)
    .png({ compressionLevel: 0 })
    .toBuffer();
  return sharp(shapes)
    .composite([{ input: noiseTile, tile: true, blend: 'overlay', left: (seed * 37) % 512, top: (seed * 61) % 512 }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** The same JPEG with a comment segment right after SOI: new bytes, same pixels. */
function variant(jpeg, tag) {
  const text = Buffer.from(`cassavascope bench ${tag}`);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), com, text, jpeg.subarray(2)]);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-ingest-'));
let server;
try {
  const t0 = performance.now();
  const bases = [];
  for (let s = 0; s < DISTINCT; s++) bases.push(await basePhoto(s + 1));
  const zipPath = path.join(work, 'photos.zip');
  const zip = new yazl.ZipFile();
  for (let i = 0; i < ZIP_IMAGES; i++) {
    zip.addBuffer(
      variant(bases[i % DISTINCT], `zip-${i}`),
      `trial/plot${Math.floor(i / 50)}/IMG_${String(i).padStart(4, '0')}.jpg`,
      { compress: false },
    );
  }
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(zipPath));
  const zipBytes = fs.statSync(zipPath).size;
  process.stderr.write(
    `generated ${ZIP_IMAGES} JPEGs (${(zipBytes / 1e6).toFixed(0)} MB ZIP) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  server = await startServer(path.join(work, 'data'));
  server.resetPeak();

  // 1. ZIP ingest.
  const form = new FormData();
  form.append('file', await fs.openAsBlob(zipPath, { type: 'application/zip' }), 'photos.zip');
  const c0 = server.cpuSeconds();
  const z0 = performance.now();
  const res = await fetch(`${server.url}/api/images/upload-batch/`, { method: 'POST', body: form });
  const body = await res.json();
  const seconds = (performance.now() - z0) / 1000;
  if (res.status !== 201 || body.count !== ZIP_IMAGES)
    throw new Error(`ZIP upload: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  figure(bench, 'zip_seconds', seconds, 's', { images: ZIP_IMAGES });
  figure(bench, 'zip_images_per_s', ZIP_IMAGES / seconds, 'images/s');
  figure(bench, 'zip_mb_per_s', zipBytes / 1e6 / seconds, 'MB/s');
  figure(bench, 'zip_peak_rss', server.peakRss() / 1024 / 1024, 'MB');
  // CPU time is what load from other processes does not inflate: 2 cores / this = the ceiling on an idle machine.
  figure(bench, 'zip_server_cpu_ms_per_image', ((server.cpuSeconds() - c0) * 1000) / ZIP_IMAGES, 'ms');
  fs.rmSync(zipPath);

  // 2. Multi-file upload of 200 in batches of 20.
  server.resetPeak();
  const mc0 = server.cpuSeconds();
  const m0 = performance.now();
  for (let b = 0; b < MULTI_IMAGES / BATCH; b++) {
    const batch = new FormData();
    for (let i = 0; i < BATCH; i++) {
      const n = b * BATCH + i;
      batch.append(
        'files',
        new Blob([variant(bases[n % DISTINCT], `multi-${n}`)], { type: 'image/jpeg' }),
        `multi_${String(n).padStart(4, '0')}.jpg`,
      );
    }
    const r = await fetch(`${server.url}/api/images/upload-files/`, { method: 'POST', body: batch });
    const j = await r.json();
    if (r.status !== 201 || j.count !== BATCH)
      throw new Error(`multi-file upload: ${r.status} ${JSON.stringify(j).slice(0, 300)}`);
  }
  const mSeconds = (performance.now() - m0) / 1000;
  figure(bench, 'multi_file_images_per_s', MULTI_IMAGES / mSeconds, 'images/s', { images: MULTI_IMAGES, batch: BATCH });
  figure(bench, 'multi_file_peak_rss', server.peakRss() / 1024 / 1024, 'MB');
  figure(bench, 'multi_file_server_cpu_ms_per_image', ((server.cpuSeconds() - mc0) * 1000) / MULTI_IMAGES, 'ms');
} finally {
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
