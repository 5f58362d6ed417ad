// Web app figures: the production bundle's initial JS (gzip), and, in headless Chromium against a real server
// holding 100 000 images, the time from clicking "Images" to the first image card and the frames dropped while
// the grid scrolls for 5 s. Rows are seeded straight into the SQLite database that the server's own migrations
// created (as listing.mjs does); 500 real WebP thumbnails are shared by the rows so cards render real pictures.
// Everything generated lives in a temp dir removed at the end. Needs `npm run build` (npm run bench does it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { launchBenchBrowser, measureScrollFrames } from './_browser.mjs';
import { figure, startServer } from './_server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const requireServer = createRequire(path.join(root, 'apps/server/package.json'));
const bench = 'web';
const IMAGES = Number(process.env.BENCH_IMAGES ?? 100_000);
const FOLDERS = 40;
const THUMBS = 500;
const SCROLL_MS = 5000;

// 1. Bundle: what index.html loads before any section is opened (entry script, modulepreloads, CSS).
const dist = path.join(root, 'apps/web/dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;
const initialJs = initial.filter((f) => f.endsWith('.js')).reduce((s, f) => s + gz(f), 0);
const initialCss = initial.filter((f) => f.endsWith('.css')).reduce((s, f) => s + gz(f), 0);
const allJs = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const totalJs = allJs.reduce((s, f) => s + gz(`assets/${f}`), 0);
figure(bench, 'initial_js_gzip', initialJs / 1024, 'KB', { files: initial.filter((f) => f.endsWith('.js')).length });
figure(bench, 'initial_css_gzip', initialCss / 1024, 'KB');
figure(bench, 'all_js_gzip', totalJs / 1024, 'KB', { chunks: allJs.length });

// 2. A server with 100 000 images.
async function seed() {
  const first = await startServer(dataDir);
  await first.stop();
  const sharp = requireServer('sharp');
  const thumbKeys = [];
  for (let t = 0; t < THUMBS; t++) {
    const w = 400;
    const h = 300;
    const raw = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 3;
        const dx = x - w / 2;
        const dy = y - h / 2;
        const leaf = dx * dx + dy * dy < 120 * 120;
        const spot = leaf && (x * 7 + y * 13 + t * 31) % 211 < 9;
        raw[o] = spot ? 125 : leaf ? 50 + (t % 60) : 236;
        raw[o + 1] = spot ? 84 : leaf ? 140 + (t % 40) : 238;
        raw[o + 2] = spot ? 40 : leaf ? 60 : 228;
      }
    }
    const sha = `${t.toString(16).padStart(4, '0')}${'b'.repeat(60)}`;
    const key = `thumbs/${sha.slice(0, 2)}/${sha}.webp`;
    const file = path.join(dataDir, 'blobs', ...key.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
        .webp({ quality: 70 })
        .toBuffer(),
    );
    thumbKeys.push(key);
  }

  const Database = requireServer('better-sqlite3');
  const db = new Database(path.join(dataDir, 'cassavascope.db'));
  // name_sort (migration 0013) approximated by the lower-cased name, as for the images below.
  const insertFolder = db.prepare(
    'insert into folders (name, name_key, name_sort, description, created_at) values (?, ?, ?, ?, ?)',
  );
  const insertImage = db.prepare(
    // name_sort (migration 0009) approximated by the lower-cased name: distinct values, as real keys are.
    `insert into images (name, name_lower, name_sort, folder_id, folder_sort, size, format, width, height, sha256, blob_key, thumb_key, created_at, ppd_value, last_prediction)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const start = Date.UTC(2025, 0, 1);
  const folderKeys = [''];
  db.transaction(() => {
    for (let f = 1; f <= FOLDERS; f++) {
      const name = `Field trial ${f}`;
      insertFolder.run(
        name,
        name.toLowerCase(),
        name.toLowerCase(),
        '',
        new Date(start + f * 86_400_000).toISOString(),
      );
      folderKeys.push(name.toLowerCase());
    }
    for (let i = 1; i <= IMAGES; i++) {
      const name = i % 3 === 0 ? `木薯叶_${i}.jpg` : `plot${i % 300}_rep${i % 4}_${i}.jpg`;
      const folder = rand() < 0.15 ? null : 1 + Math.floor(rand() * FOLDERS);
      const sha = `${i.toString(16).padStart(8, '0')}${'a'.repeat(56)}`;
      const created = new Date(start + Math.floor((i / IMAGES) * 320 * 86_400_000)).toISOString();
      const ppd = rand() < 0.4 ? Math.round(rand() * 1200) / 100 : null;
      insertImage.run(
        name,
        name.toLowerCase(),
        name.toLowerCase(),
        folder,
        folderKeys[folder ?? 0],
        500_000 + Math.floor(rand() * 7_000_000),
        'jpeg',
        4000,
        3000,
        sha,
        `originals/${sha.slice(0, 2)}/${sha}.jpg`,
        thumbKeys[i % THUMBS],
        created,
        ppd,
        ppd === null ? null : ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy',
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

// BENCH_DATA_DIR keeps (and reuses) the seeded library between runs while iterating.
const keepData = Boolean(process.env.BENCH_DATA_DIR);
const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-web-'));
const seeded = keepData && fs.existsSync(path.join(dataDir, 'cassavascope.db'));
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-chromium-'));
let server;
let context;
try {
  if (!seeded) await seed();
  server = await startServer(dataDir);

  const apiTimes = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/images/?ordering=-created_time&page=1&page_size=200`);
    await res.arrayBuffer();
    apiTimes.push(performance.now() - t);
  }
  apiTimes.sort((a, b) => a - b);
  figure(bench, 'api_first_page_p50', apiTimes[3], 'ms', { page_size: 200, images: IMAGES });

  // 3. Chromium: open the app, click Images, wait for the first card; then scroll the grid for 5 s.
  const browser = await launchBenchBrowser(userDir);
  context = browser.context;
  const page = browser.page;
  // Measured inside the page, from the click event to the first card with its picture in the DOM, so the
  // automation's own round trips are not counted.
  const timeToFirstCard = async (p) => {
    await p.evaluate(() => {
      window.__ttfc = new Promise((resolve) => {
        document.addEventListener(
          'click',
          () => {
            const t0 = performance.now();
            const check = () => {
              if (document.querySelector('[data-testid="image-card"] img')) resolve(performance.now() - t0);
              else requestAnimationFrame(check);
            };
            check();
          },
          { capture: true, once: true },
        );
      });
    });
    await p.locator('[data-nav="images"]').click();
    return p.evaluate(() => window.__ttfc);
  };
  await page.goto(server.url + '/');
  await page.locator('[data-section="home"]').waitFor();
  figure(bench, 'time_to_first_image_card', await timeToFirstCard(page), 'ms', {
    images: IMAGES,
    note: 'click right after the home page appears: chunk and first page fetched on demand',
  });
  // A user who reads the home page first: the shell prefetches the images chunk and first page when idle.
  const second = await context.newPage();
  await second.goto(server.url + '/');
  await second.locator('[data-section="home"]').waitFor();
  await second.waitForTimeout(3000);
  figure(bench, 'time_to_first_image_card_after_idle', await timeToFirstCard(second), 'ms', {
    images: IMAGES,
    note: '3 s on the home page first (idle prefetch of chunk and first page)',
  });
  await second.close();

  // The same frame count with nothing moving: how many frames this (shared, loaded) machine drops anyway.
  await measureScrollFrames(bench, page, {
    scrollerSelector: '.image-virtuoso',
    cardSelector: '[data-testid="image-card"]',
    durationMs: SCROLL_MS,
  });
} finally {
  await context?.close().catch(() => undefined);
  await server?.stop();
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(userDir, { recursive: true, force: true });
}
