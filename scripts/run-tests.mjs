// Runs every workspace's Vitest suite and ends with one line "N passed, N failed". The server suite runs a second
// time against the scale-out parts: a throwaway PostgreSQL cluster, s3rver and a pg-boss worker process per test
// server (scripts/scale-out/services.mjs). SCALE_OUT_TESTS=0 skips that second run.
//
// Two lanes side by side (see the lanes below).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The browser tests take their pictures in every run (E2E_SCREENSHOTS=0 skips only the capture): the steps after
// a picture were written, and proven, with the time the capture takes.
const workspaces = ['packages/contract', 'packages/ppd', 'apps/server', 'apps/web'].filter((w) =>
  fs.existsSync(path.join(w, 'vitest.config.ts')),
);
const only = process.argv.slice(2);
const serial = process.env.TESTS_SERIAL === '1';
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
const failures = [];
/** Every test file's time, by pass, for the "slowest files" lines at the end. */
const fileTimes = new Map();
const firstLine = (text) => (text ?? '').split('\n').find((l) => l.trim()) ?? '(no message)';

/**
 * Runs one Vitest pass and counts its report. In a serial run its output streams to the terminal; otherwise it
 * goes to a file and is printed in one block as the pass ends, so two lanes never interleave their lines.
 */
async function runVitest(ws, label, { env = process.env, extraArgs = [], files = [], background = false } = {}) {
  const slug = `${label}-${files[0] ?? ''}-${files.length}`.replace(/[^a-z0-9]+/gi, '-').slice(0, 120);
  const out = path.join(os.tmpdir(), `vitest-${slug}-${process.pid}.json`);
  const log = serial ? undefined : path.join(os.tmpdir(), `vitest-log-${slug}-${process.pid}.txt`);
  const title = files.length ? `${label}: ${files.length > 3 ? `${files.length} files` : files.join(', ')}` : label;
  if (!log) console.log(`\n=== ${title} ===`);
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--root',
    ws,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...extraArgs,
    ...files,
  ];
  const logFd = log ? fs.openSync(log, 'w') : undefined;
  const child = spawn(process.execPath, args, { stdio: log ? ['ignore', logFd, logFd] : 'inherit', env });
  // Its test files' processes are forked later and inherit the priority.
  if (background) toBackground(child.pid);
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  if (log) {
    fs.closeSync(logFd);
    console.log(`\n=== ${title} ===\n${fs.readFileSync(log, 'utf8')}`);
    fs.rmSync(log, { force: true });
  }
  if (!fs.existsSync(out)) {
    console.log(`${title}: vitest produced no report (exit ${status})`);
    failures.push(`${title}: vitest produced no report (exit ${status})`);
    broken = true;
    return;
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out, { force: true });
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  const times = fileTimes.get(label) ?? [];
  fileTimes.set(label, times);
  // Name what failed at the end, where CI's tail shows it: failed tests, and suites that failed without a failed
  // test (an import error, a failing beforeAll, an unhandled error).
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name);
    times.push({ name: path.relative(path.join(process.cwd(), ws), file.name), ms: file.endTime - file.startTime });
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') failures.push(`${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(`${where} (suite): ${firstLine(file.message)}`);
    }
  }
  if (status !== 0 && report.numFailedTests === 0) {
    failures.push(
      `${title}: vitest exited ${status} with no failed test (a suite failed to load, or an unhandled error: see above)`,
    );
    broken = true;
  }
}

/**
 * Server test files the scale-out pass leaves out: they exercise HTTP parsing, headers, origins, shutdown or the
 * embedded default only, never the database, storage or queue, so a second run on PostgreSQL + S3 adds minutes
 * and no check. crash.test.ts restarts the embedded default (SQLite) by design; its scale-out counterpart is
 * scale-out-workers.test.ts (a worker SIGKILLed mid-job).
 */
const BACKEND_INDEPENDENT = [
  'test/crash.test.ts',
  'test/security.test.ts',
  'test/cross-site.test.ts',
  'test/cross-site-port.test.ts',
  'test/uploads-malformed.test.ts',
  'test/uploads-encoded-line-break.test.ts',
  'test/shutdown-keep-alive.test.ts',
  'test/web-files.test.ts',
  'test/tasks-limiter.test.ts',
  // The linter's floors (it reads source files) and pure functions: nothing of a backend.
  'test/lint-floors.test.ts',
  'test/group-statistics.test.ts',
  'test/task-parameters.test.ts',
  // The engine's accuracy with a lab model trained on real photos, through the API: the same figures on any
  // backend; training and scoring with a lab model on PostgreSQL + S3 + workers is models.test.ts's work.
  'test/models-real-photos.test.ts',
];

/**
 * The web suite as runs: the files that drive no browser in one run, then the browser files in one run (one file at
 * a time, apps/web/vitest.config.ts), the largest first. A run of its own for each browser file cost about 1 s of
 * CPU each to start Vitest again, for nothing: the report names the file of every failure either way.
 */
function webRuns() {
  const dir = 'apps/web/test';
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => ({ file: `test/${f}`, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
  const drivesBrowser = (text) => /\b(startE2e|launchBrowser)\b/.test(text);
  const plain = files.filter((f) => !drivesBrowser(f.text)).map((f) => f.file);
  const browser = files
    .filter((f) => drivesBrowser(f.text))
    .sort((a, b) => b.text.length - a.text.length)
    .map((f) => f.file);
  return [plain, browser].filter((run) => run.length > 0);
}

/** Runs the web suite's runs one after another: one browser at a time. */
async function webLane() {
  if (!selected('apps/web')) return;
  for (const files of webRuns()) await runVitest('apps/web', 'apps/web', { files });
}

// Two lanes side by side. One runs the engine's suite, the server suite and its scale-out run, one after another;
// the other runs the browser files, which mostly wait on a page, one at a time. Three lanes (the engine's suite on
// its own) slowed every pass on two cores (the server suite 294 -> 502 s) and won nothing. The first lane taking
// browser files once its passes ended (two browsers at a time at the end) saved no time in two clean clones (24.6
// and 25.2 min, as before: every pass is CPU-bound) and steps failed under the load, so it does not.
// TESTS_SERIAL=1 runs every pass one after another, its output streamed.
const selected = (ws) => workspaces.includes(ws) && (!only.length || only.some((o) => ws.includes(o)));
const serverSelected =
  workspaces.includes('apps/server') &&
  (!only.length || only.some((o) => 'apps/server'.includes(o) || o === 'scale-out'));

/**
 * The engine and server lane runs at a lower CPU priority (nice 10) when the lanes run side by side. Its passes
 * are throughput: they take whatever CPU is free. The browser lane is the longest (about 21 of the 25 min) and
 * mostly waits on a page: at equal priority each of its steps waited for CPU behind the other lane's forks, so
 * it ran about twice as slow as alone, and a step under that load is where the flaky ones failed. Now the
 * browser lane gets a core when it needs one, and the other lane fills the rest.
 */
const BACKGROUND_NICE = 10;
function toBackground(pid) {
  if (serial || pid === undefined) return;
  try {
    os.setPriority(pid, BACKGROUND_NICE);
  } catch {
    // Not permitted (another user's process): it runs at the usual priority.
  }
}

async function engineAndServerLane() {
  for (const ws of workspaces.filter((w) => w !== 'apps/web'))
    if (selected(ws)) await runVitest(ws, ws, { background: true });
  if (serverSelected && process.env.SCALE_OUT_TESTS !== '0') await runScaleOutPass();
}

if (serial) {
  await engineAndServerLane();
  await webLane();
} else {
  await Promise.all([engineAndServerLane(), webLane()]);
}

for (const [label, times] of fileTimes) {
  const slowest = times.sort((a, b) => b.ms - a.ms).slice(0, 8);
  console.log(`${label}: slowest files: ${slowest.map((f) => `${f.name} ${Math.round(f.ms / 1000)} s`).join(', ')}`);
}
if (failures.length) console.log(`\nWhat failed:\n${failures.map((f) => `- ${f.slice(0, 400)}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || broken ? 1 : 0);
async function runScaleOutPass() {
  const label = 'apps/server on PostgreSQL + S3 + pg-boss worker processes';
  const { startScaleOutServices } = await import('./scale-out/services.mjs');
  let services;
  try {
    services = await startScaleOutServices();
    // PostgreSQL's server (its sessions are forked from it) and s3rver serve the background lane.
    toBackground(services.state.s3Pid);
    toBackground(postmasterPid(services.state.pgDir));
  } catch (err) {
    console.log(`\n=== ${label} ===\n${label}: could not start the services: ${err.message}`);
    console.log("(scripts/test-everything.sh installs Debian's postgresql; SCALE_OUT_TESTS=0 skips this pass)");
    broken = true;
    return;
  }
  // Always stop the cluster and s3rver, also on Ctrl-C or a kill.
  const stop = () => {
    services?.stop();
    services = undefined;
  };
  const onSignal = (signal) => {
    stop();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // Longer timeouts: task tests here first start a worker process (Node + engine) per server.
    // The AWS SDK's notice that its 2027 releases need Node 22 is printed by every process otherwise
    // (Node 20 is this project's pinned runtime, docs/architecture.md).
    // The upload fuzz's subject is the multipart and ZIP parsing, the same code on both stacks: here its first 700
    // mutations (of the 2000 the first pass sends) check that the rows and objects they leave stay consistent.
    const env = {
      ...process.env,
      ...services.env,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      FUZZ_REQUESTS: process.env.FUZZ_REQUESTS ?? '700',
    };
    await runVitest('apps/server', label, {
      env,
      background: true,
      extraArgs: [
        ...BACKEND_INDEPENDENT.flatMap((f) => ['--exclude', f]),
        '--testTimeout=180000',
        '--hookTimeout=180000',
      ],
    });
  } finally {
    stop();
  }
}

/** The PostgreSQL server's pid, from the first line of its postmaster.pid; undefined if unreadable. */
function postmasterPid(pgDir) {
  try {
    const pid = Number(fs.readFileSync(path.join(pgDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
