// Shared by the benchmarks: start the real server (node apps/server/dist/main.js) as a child
// process on a free port, wait until it answers, sample its RSS from /proc, stop it.
import { spawn } from 'node:child_process';
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
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
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
    async stop() {
      clearInterval(sampler);
      if (exited) return;
      const done = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await done;
    },
  };
}

export function figure(bench, name, value, unit, extra = {}) {
  process.stdout.write(`${JSON.stringify({ bench, figure: name, value: Math.round(value * 100) / 100, unit, ...extra })}\n`);
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
