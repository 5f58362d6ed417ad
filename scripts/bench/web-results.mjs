// Results and Tasks screens at scale, in headless Chromium against the real server:
// - a task of 10 000 results: time from clicking it in the Results sidebar to the first result card, frames
//   dropped while the grid scrolls for 5 s (with the idle baseline of this shared machine), and the time to
//   show the last card after jumping to the end (random access: only that page is fetched);
// - the Tasks screen's polling: task-list requests per poll interval while several tasks run.
// One real task scores one real photo; its result row is then copied 9 999 times straight into SQLite (the
// server's own migrations made the schema), so every card shows real result images. Temp dirs are removed.
// Needs `npm run build` (npm run bench does it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { launchBenchBrowser, measureScrollFrames } from './_browser.mjs';
import { figure, percentile, startServer } from './_server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const requireServer = createRequire(path.join(root, 'apps/server/package.json'));
const bench = 'web-results';
const RESULTS = Number(process.env.BENCH_RESULTS ?? 10_000);
const SCROLL_MS = 5000;
const POLL_WINDOW_MS = 10_000;
const POLL_INTERVAL_MS = 2000; // TASK_POLL_MS of the Tasks screen
const RUNNING_TASKS = 4;

/** A photo the engine scores: cream root slices with dark lesion wedges on a dark background. */
async function specimen(seed) {
  const sharp = requireServer('sharp');
  const share = 0.15 + ((seed * 37) % 60) / 100;
  const parts = [];
  for (let i = 0; i < 3; i++) {
    const cx = 120 * (i + 1);
    const a = share * 2 * Math.PI;
    parts.push(
      `<circle cx="${cx}" cy="160" r="48" fill="#7a5230"/><circle cx="${cx}" cy="160" r="43" fill="#efe4c4"/>`,
    );
    parts.push(
      `<path d="M ${cx} 160 L ${cx + 43} 160 A 43 43 0 ${a > Math.PI ? 1 : 0} 1 ${(cx + 43 * Math.cos(a)).toFixed(1)} ${(160 + 43 * Math.sin(a)).toFixed(1)} Z" fill="#3a2a22"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><rect width="100%" height="100%" fill="#1f2a36"/>${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

async function upload(url, files) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.bytes], { type: 'image/jpeg' }), f.name);
  form.append('check_duplicate', '0');
  const res = await fetch(`${url}/api/images/upload-files/`, { method: 'POST', body: form });
  return (await res.json()).uploaded.map((image) => image.id);
}

async function createTask(url, name, imageIds) {
  const res = await fetch(`${url}/api/tasks/prediction/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, image_ids: imageIds }),
  });
  return (await res.json()).id;
}

async function waitWhileRunning(url, id) {
  for (;;) {
    const task = await (await fetch(`${url}/api/tasks/${id}/`)).json();
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-results-'));
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-bench-chromium-'));
let server;
let context;
try {
  server = await startServer(dataDir, { env: { WORKERS: '1' } });
  const [imageId] = await upload(server.url, [{ name: 'seed.jpg', bytes: await specimen(1) }]);
  const taskId = await createTask(server.url, `${RESULTS} results`, [imageId]);
  await waitWhileRunning(server.url, taskId);

  const Database = requireServer('better-sqlite3');
  const db = new Database(path.join(dataDir, 'cassavascope.db'));
  const row = db.prepare('select * from results where task_id = ?').get(taskId);
  const insert = db.prepare(
    `insert into results (task_id, image_id, image_name, image_name_lower, ppd_value, sub_ppd_values, prediction, confidence, oss_key, vis_keys, error_code, error_message, processing_time, created_at)
     values (@task_id, @image_id, @image_name, @image_name_lower, @ppd_value, @sub_ppd_values, @prediction, @confidence, @oss_key, @vis_keys, @error_code, @error_message, @processing_time, @created_at)`,
  );
  db.transaction(() => {
    for (let i = 1; i < RESULTS; i++) {
      const ppd = ((i * 7919) % 1150) / 100;
      const name = `plot${i % 300}_rep${i % 4}_${i}.jpg`;
      insert.run({
        ...row,
        image_id: 1_000_000 + i,
        image_name: name,
        image_name_lower: name,
        ppd_value: ppd,
        sub_ppd_values: JSON.stringify([ppd, ppd, ppd]),
        prediction: ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy',
      });
    }
  })();
  db.prepare('update tasks set image_count = ?, processed_count = ?, scored_count = ? where id = ?').run(
    RESULTS,
    RESULTS,
    RESULTS,
    taskId,
  );
  db.close();

  const apiTimes = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await (await fetch(`${server.url}/api/predictions/?task_id=${taskId}&page=1&page_size=100`)).arrayBuffer();
    apiTimes.push(performance.now() - t);
  }
  apiTimes.sort((a, b) => a - b);
  figure(bench, 'api_results_first_page_p50', percentile(apiTimes, 50), 'ms', { page_size: 100, results: RESULTS });

  const browser = await launchBenchBrowser(userDir);
  context = browser.context;
  const page = browser.page;
  await page.goto(server.url + '/');
  await page.locator('[data-section="home"]').waitFor();
  await page.locator('[data-nav="results"]').click();
  const taskEntry = page.locator(`[data-testid="results-task"][data-task-id="${taskId}"]`);
  await taskEntry.waitFor();
  const t0 = performance.now();
  await taskEntry.click();
  await page
    .getByTestId('results-count')
    .filter({ hasText: RESULTS.toLocaleString('en-US') })
    .waitFor();
  await page.locator('[data-testid="result-card"] img').first().waitFor();
  figure(bench, 'time_to_first_result_card', performance.now() - t0, 'ms', {
    results: RESULTS,
    note: 'from the click on the task',
  });

  await measureScrollFrames(bench, page, {
    scrollerSelector: '.results-scroller',
    cardSelector: '[data-testid="result-card"]',
    durationMs: SCROLL_MS,
  });

  const t1 = performance.now();
  await page.evaluate(() => {
    const scroller = document.querySelector('.results-scroller');
    scroller.scrollTop = scroller.scrollHeight;
  });
  await page.locator('[data-testid="result-card"]').filter({ hasText: 'seed.jpg' }).waitFor();
  figure(bench, 'jump_to_last_card', performance.now() - t1, 'ms', { results: RESULTS });

  // Tasks screen: several tasks running, one list request per poll interval.
  const ids = await upload(
    server.url,
    // Enough images that the tasks (run one after another) outlast the measuring window.
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => ({ name: `poll_${i}.jpg`, bytes: await specimen(10 + i) })),
    ),
  );
  const running = [];
  for (let i = 0; i < RUNNING_TASKS; i++) running.push(await createTask(server.url, `Poll ${i + 1}`, ids));
  let requests = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.startsWith('/api/tasks')) requests++;
  });
  await page.locator('[data-nav="tasks"]').click();
  await page.locator('[data-testid="task-row"][data-status="running"]').first().waitFor();
  requests = 0;
  await page.waitForTimeout(POLL_WINDOW_MS);
  const stillRunning = (await (await fetch(`${server.url}/api/tasks/?status=running`)).json()).count;
  figure(bench, 'tasks_poll_requests_per_interval', requests / (POLL_WINDOW_MS / POLL_INTERVAL_MS), 'requests', {
    running_tasks_at_end: stillRunning,
    window_ms: POLL_WINDOW_MS,
  });
  for (const id of running) await fetch(`${server.url}/api/tasks/${id}/cancel/`, { method: 'POST' });
} finally {
  await context?.close().catch(() => undefined);
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(userDir, { recursive: true, force: true });
}
