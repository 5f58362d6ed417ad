// Shared by the benchmarks: start the real server (node apps/server/dist/main.js) as a child
// process on a free port, wait until it answers, sample its RSS from /proc, stop it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function rssBytes(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system, every thread) the process has used so far. */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Starts the server; resolves once `probePath` answers 200, with the time that took. */
export async function startServer(dataDir, { env = {}, probePath = '/api/folders/?page_size=1' } = {}) {
  const port = await freePort();
  const started = performance.now();
  // started as npm start starts it (package.json: --single-threaded-gc)
  const child = spawn(process.execPath, ['--single-threaded-gc', path.join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  child.on('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('server exited during start');
    try {
      const res = await fetch(url + probePath);
      if (res.ok) {
        await res.arrayBuffer();
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startMs = performance.now() - started;
  let peakRss = rssBytes(child.pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(child.pid))), 50);
  return {
    url,
    pid: child.pid,
    startMs,
    peakRss: () => peakRss,
    resetPeak: () => (peakRss = rssBytes(child.pid)),
    cpuSeconds: () => cpuSeconds(child.pid),
    alive: () => !exited,
    /** Sends `signal` (e.g. SIGKILL for the chaos check); resolves once the process has exited. */
    async kill(signal) {
      clearInterval(sampler);
      if (exited) return;
      const done = new Promise((r) => child.on('exit', r));
      child.kill(signal);
      await done;
    },
    stop() {
      return this.kill('SIGTERM');
    },
  };
}

/**
 * `node apps/server/dist/worker-main.js` (a pg-boss worker process, no HTTP) with `env`; resolves once it logs
 * `worker ready`. `core`: pinned to that core with taskset when available.
 */
export async function startWorker(env, { core } = {}) {
  const entry = [process.execPath, '--single-threaded-gc', path.join(root, 'apps/server/dist/worker-main.js')];
  const pin = core !== undefined && spawnSync('taskset', ['--version']).status === 0;
  const [cmd, ...args] = pin ? ['taskset', '-c', String(core), ...entry] : entry;
  const child = spawn(cmd, args, {
    // info whatever `env` says: readiness is the `worker ready` line
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      if (buffered.includes('worker ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  child.stdout.resume();
  let exited = false;
  child.once('exit', () => (exited = true));
  return {
    pid: child.pid,
    pinned: pin,
    cpu: () => cpuSeconds(child.pid),
    alive: () => !exited,
    async kill(signal) {
      if (exited) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await done;
    },
    stop() {
      return this.kill('SIGTERM');
    },
  };
}

export function figure(bench, name, value, unit, extra = {}) {
  process.stdout.write(
    `${JSON.stringify({ bench, figure: name, value: Math.round(value * 100) / 100, unit, ...extra })}\n`,
  );
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The listing queries both listing benches time (embedded SQLite and PostgreSQL), on the same 100 000 rows. */
export const LISTING_QUERIES = {
  page_1: '/api/images/',
  page_1000: '/api/images/?page=1000',
  search: '/api/images/?search=rep3',
  search_rare: '/api/images/?search=leaf-12345',
  ordering_size_desc: '/api/images/?ordering=-size',
  ordering_name: '/api/images/?ordering=name&page=500',
  ordering_folder: '/api/images/?ordering=folder',
  folder: '/api/images/?folder=7',
  folder_none: '/api/images/?folder=none',
  has_ppd: '/api/images/?has_ppd=true',
  day: '/api/images/?day=2025-06-01',
  days: '/api/images/days/',
  types: '/api/images/types/',
  folders: '/api/folders/',
};

/**
 * Latency of each query (`{name: path}`) against `server`: ten warm-up requests, then `runs` timed ones.
 * Prints `<prefix><name>_p50` and `_p95`, and server CPU per request when `withCpu`. Returns the worst p95.
 */
export async function measureQueries(bench, server, queries, { runs, prefix = '', withCpu = false, extra = {} }) {
  let worst = 0;
  for (const [name, q] of Object.entries(queries)) {
    const times = [];
    let cpu0 = 0;
    for (let i = 0; i < runs + 10; i++) {
      if (i === 10) cpu0 = server.cpuSeconds(); // the first ten warm the caches
      const t0 = performance.now();
      const res = await fetch(server.url + q);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${q}: ${res.status}`);
      if (i >= 10) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    worst = Math.max(worst, p95);
    figure(bench, `${prefix}${name}_p50`, percentile(times, 50), 'ms', { query: q, ...extra });
    figure(bench, `${prefix}${name}_p95`, p95, 'ms', { query: q, ...extra });
    // Server CPU per request: what other processes' load does not inflate (10 ms clock-tick resolution, averaged).
    if (withCpu)
      figure(bench, `${prefix}${name}_server_cpu`, ((server.cpuSeconds() - cpu0) * 1000) / runs, 'ms', { query: q });
  }
  return worst;
}

/** Uploads `count` images in requests of 50, cycling through `pictures` (JPEG buffers); returns their ids. */
export async function uploadBenchImages(serverUrl, pictures, count) {
  const ids = [];
  for (let i = 0; i < count; i += 50) {
    const form = new FormData();
    for (let j = i; j < Math.min(count, i + 50); j++) {
      form.append(
        'files',
        new Blob([pictures[j % pictures.length]], { type: 'image/jpeg' }),
        `bench_${String(j).padStart(4, '0')}.jpg`,
      );
    }
    form.append('check_duplicate', '0');
    const res = await fetch(`${serverUrl}/api/images/upload-files/`, { method: 'POST', body: form });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
    ids.push(...body.uploaded.map((u) => u.id));
  }
  return ids;
}
