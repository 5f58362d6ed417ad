import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_DIR, SERVER_MAIN, WEB_INDEX } from './paths';

export interface E2eServer {
  url: string;
  dataDir: string;
  /** JSON call against the API; `pathname` starts with /api/. */
  api<T = any>(pathname: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  /** Multipart upload of in-memory files (for seeding state without the UI). */
  upload(
    pathname: string,
    files: { name: string; bytes: Uint8Array }[],
    fields?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stderr()}`);
    for (const probe of ['/api/status/', '/api/images/']) {
      try {
        const res = await fetch(url + probe);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server at ${url} did not answer /api/status/ or /api/images/ within 30 s:\n${stderr()}`);
}

/**
 * The real built server (`node apps/server/dist/main.js`) on a free port with a fresh temp DATA_DIR, serving the
 * built web app. Needs `npm run build` first (npm test does it).
 */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  for (const file of [SERVER_MAIN, WEB_INDEX]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` before the e2e tests`);
  }
  const dataDir = env.DATA_DIR ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'cassava-e2e-')));
  const ownsDataDir = env.DATA_DIR === undefined;
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: REPO_DIR,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errText = '';
  child.stderr?.on('data', (d: Buffer) => {
    errText = (errText + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(url, child, () => errText);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }

  return {
    url,
    dataDir,
    async api(pathname, init = {}) {
      const res = await fetch(url + pathname, {
        method: init.method ?? 'GET',
        headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async upload(pathname, files, fields = {}) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      const field = pathname.includes('upload-files') ? 'files' : 'file';
      for (const f of files) form.append(field, new Blob([new Uint8Array(f.bytes)]), f.name);
      const res = await fetch(url + pathname, { method: 'POST', body: form });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownsDataDir) await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}
