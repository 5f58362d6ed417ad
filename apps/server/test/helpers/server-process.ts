import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaleOutEnvForTest } from './scale-out-env.js';

/**
 * The built server (node apps/server/dist/main.js) as a real child process, for the tests that kill it with
 * SIGKILL and start it again on the same DATA_DIR.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = path.join(ROOT, 'apps/server/dist/main.js');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** resolves with the signal that ended the process (null for a plain exit) */
  exited: Promise<NodeJS.Signals | null>;
}

/**
 * The environment of one server process on `dataDir` (PostgreSQL and S3 in the scale-out pass) with no worker
 * processes: the API process works the jobs itself.
 */
export async function oneProcessEnv(dataDir: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WORKERS: '1',
    ...(await scaleOutEnvForTest()),
    WORKER_PROCESSES: '0',
  };
  if (env.DATABASE_URL) env.API_WORKS_JOBS = '1';
  return env;
}

/** `npm test` builds first; a test run on its own builds what is missing. */
export function ensureServerBuilt(): void {
  if (fs.existsSync(MAIN)) return;
  const build = spawnSync(
    'npm',
    ['run', 'build', '-w', '@cassavascope/contract', '-w', '@cassavascope/ppd', '-w', '@cassavascope/server'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('building the server failed');
}

/**
 * Starts the server with `env` over this process's environment; resolves once Fastify logs the address it
 * listens on. Each child is added to `children`, for the test's afterAll to kill whatever is left.
 */
export function startServerProcess(env: Record<string, string>, children: ChildProcess[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, exited });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}
