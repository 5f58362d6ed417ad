// Throwaway PostgreSQL cluster + s3rver on free 127.0.0.1 ports, for tests and benchmarks.
// Used by scripts/run-tests.mjs (second server run), scripts/bench/scale.mjs and the start/stop CLIs.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const S3_ACCESS_KEY = 'S3RVER';
export const S3_SECRET_KEY = 'S3RVER';

/** Debian installs PostgreSQL under /usr/lib/postgresql/<major>/bin; PG_BIN overrides. */
export function findPgBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => b - a)
    : [];
  for (const m of majors) if (fs.existsSync(path.join(root, m, 'bin', 'initdb'))) return path.join(root, m, 'bin');
  throw new Error('PostgreSQL binaries not found (install Debian\'s "postgresql" package, or set PG_BIN)');
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** PostgreSQL refuses to run as root: as root, run its binaries as the postgres user. */
function runPg(bin, args, opts = {}) {
  const cmd = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  try {
    // cwd: a directory the postgres user can enter (not the repository, e.g. under /root in CI).
    return execFileSync(cmd[0], cmd[1], { stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir(), ...opts }).toString();
  } catch (err) {
    const out = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim();
    throw new Error(`${path.basename(bin)} ${args.join(' ')} failed: ${out || err.message}`, { cause: err });
  }
}

/** runPg without blocking: resolves with its output, rejects with it. */
function runPgInBackground(bin, args) {
  const [cmd, cmdArgs] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return new Promise((resolve, reject) => {
    execFile(cmd, cmdArgs, { cwd: os.tmpdir() }, (err, stdout, stderr) => {
      if (err)
        reject(
          new Error(`${path.basename(bin)} ${args.join(' ')} failed: ${`${stdout}${stderr}`.trim() || err.message}`),
        );
      else resolve(stdout);
    });
  });
}

export async function startPostgres() {
  const bin = findPgBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-pg-'));
  if (isRoot) execFileSync('chown', ['postgres:', dir]);
  const dataDir = path.join(dir, 'data');
  runPg(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const port = await freePort();
  // fsync off and a bigger connection limit: a throwaway cluster for tests (one database per test server).
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400`;
  runPg(path.join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-o',
    opts,
    '-l',
    path.join(dir, 'postgres.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  const restartArgs = ['-D', dataDir, '-l', path.join(dir, 'postgres.log'), '-m', 'fast', '-w', '-t', '60', 'restart'];
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    /** `pg_ctl -m fast restart`: every session is ended (57P01), the server is back on the same port. */
    restart() {
      runPg(path.join(bin, 'pg_ctl'), restartArgs);
    },
    /** The same restart without blocking this process's event loop (the chaos check polls the API meanwhile). */
    restartInBackground() {
      return runPgInBackground(path.join(bin, 'pg_ctl'), restartArgs);
    },
    stop() {
      try {
        runPg(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch (err) {
        process.stderr.write(`warning: ${err.message}\n`);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** s3rver runs in its own process (the test runner blocks its own event loop while Vitest runs). */
export async function startS3rver({ detached = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cassava-s3-'));
  const portFile = path.join(dir, 'port');
  const log = fs.openSync(path.join(dir, 's3rver.log'), 'a');
  const child = spawn(process.execPath, [path.join(here, 's3rver-process.mjs'), path.join(dir, 'data'), portFile], {
    stdio: ['ignore', log, log],
    detached,
  });
  fs.closeSync(log);
  if (detached) child.unref();
  let exited = null;
  child.once('exit', (code) => (exited = code ?? -1));
  for (let i = 0; i < 300 && !fs.existsSync(portFile); i++) {
    if (exited !== null) break;
    await sleep(50);
  }
  if (!fs.existsSync(portFile)) {
    child.kill('SIGKILL');
    const out = fs.readFileSync(path.join(dir, 's3rver.log'), 'utf8');
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`s3rver did not start: ${out.trim() || 'no output'}`);
  }
  const port = Number(fs.readFileSync(portFile, 'utf8'));
  return { endpoint: `http://127.0.0.1:${port}`, dir, pid: child.pid, stop: () => stopS3rver(child.pid, dir) };
}

export function stopS3rver(pid, dir) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Starts both; on failure stops whatever started. Returns the env the tests read and a stop(). */
export async function startScaleOutServices({ detached = false } = {}) {
  const pg = await startPostgres();
  let s3;
  try {
    s3 = await startS3rver({ detached });
  } catch (err) {
    pg.stop();
    throw err;
  }
  return {
    env: {
      TEST_DATABASE_URL: pg.url,
      TEST_S3_ENDPOINT: s3.endpoint,
      TEST_S3_ACCESS_KEY_ID: S3_ACCESS_KEY,
      TEST_S3_SECRET_ACCESS_KEY: S3_SECRET_KEY,
    },
    state: { pgDir: pg.dir, pgBin: findPgBin(), s3Dir: s3.dir, s3Pid: s3.pid },
    stop() {
      s3.stop();
      pg.stop();
    },
  };
}

/** Stops services started by another process (the start.mjs CLI), from the state it saved. */
export function stopFromState(state) {
  stopS3rver(state.s3Pid, state.s3Dir);
  try {
    runPg(path.join(state.pgBin, 'pg_ctl'), ['-D', path.join(state.pgDir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } catch (err) {
    process.stderr.write(`warning: ${err.message}\n`);
  }
  fs.rmSync(state.pgDir, { recursive: true, force: true });
}
