// Runs every workspace's Vitest suite in turn and ends with one line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const workspaces = ['packages/contract', 'packages/ppd', 'apps/server', 'apps/web'].filter((w) =>
  fs.existsSync(path.join(w, 'vitest.config.ts')),
);
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
for (const ws of workspaces) {
  if (only.length && !only.some((o) => ws.includes(o))) continue;
  const out = path.join(os.tmpdir(), `vitest-${path.basename(ws)}-${process.pid}.json`);
  console.log(`\n=== ${ws} ===`);
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--root', ws, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { stdio: 'inherit', env: process.env },
  );
  if (!fs.existsSync(out)) {
    console.log(`${ws}: vitest produced no report (exit ${run.status})`);
    broken = true;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out, { force: true });
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  if (run.status !== 0 && report.numFailedTests === 0) {
    console.log(`${ws}: vitest exited ${run.status} (a suite failed to load?)`);
    broken = true;
  }
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || broken ? 1 : 0);
