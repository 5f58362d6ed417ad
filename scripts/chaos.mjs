// The chaos check of issue 26 (`npm run chaos`; never in CI: it kills processes and restarts PostgreSQL, and
// takes ~15 minutes on two cores). It starts the real built server (node apps/server/dist/main.js) on the
// embedded default (SQLite + local files + the in-process worker) and on the scale-out stack (PostgreSQL + S3 via
// s3rver + two worker processes), runs each scenario on a fresh installation, and prints one JSON line per
// scenario: {scenario, stack, ok, ...figures}. A table of them follows on standard error; exit 1 if one failed.
//
//   node scripts/chaos.mjs                      every scenario on both stacks
//   node scripts/chaos.mjs embedded 1 7         some scenarios, one stack (scale-out: "scale-out")
//
// Scenarios (scripts/chaos/*.mjs):
//   1 zip-upload-kill     SIGKILL during a ~150 MB ZIP upload of 4000x3000 JPEGs; restart; rows vs stored files
//   2 folder-delete-kill  SIGKILL during a 300-image folder delete; restart; all or nothing, no orphan file
//   3 task-kill           SIGKILL of every process during a task; restart; the task ends, every result has files
//   4 blob-race           re-uploads of the same bytes overlapping a folder delete; every row's /media is 200
//   5 load                20 readers + 3 uploaders for 30 s while a task runs; requests, errors, p95
//   6 pg-restart          pg_ctl -m fast restart mid-task (scale-out only): processes alive, /status/, task ends
//   7 storage-damage      a bit-flipped and a removed original: the storage check reports them
//   8 headers             another port's Origin, the CSP, HSTS behind HTTPS, filename* with a line break
import fs from 'node:fs';
import path from 'node:path';
import { folderDeleteKill, taskKill, zipUploadKill } from './chaos/crash.mjs';
import { headers, pgRestart, storageDamage } from './chaos/ops.mjs';
import { blobRace, load } from './chaos/race-load.mjs';
import { embeddedStack, root, scaleOutStack } from './chaos/_stack.mjs';

const SCENARIOS = [
  { n: 1, name: 'zip-upload-kill', run: zipUploadKill },
  { n: 2, name: 'folder-delete-kill', run: folderDeleteKill },
  { n: 3, name: 'task-kill', run: taskKill },
  { n: 4, name: 'blob-race', run: blobRace },
  { n: 5, name: 'load', run: load },
  { n: 7, name: 'storage-damage', run: storageDamage },
  { n: 8, name: 'headers', run: headers },
  // last: it restarts the cluster every scale-out installation shares
  { n: 6, name: 'pg-restart', run: pgRestart, only: 'scale-out' },
];
const STACKS = { embedded: embeddedStack, 'scale-out': scaleOutStack };

const args = process.argv.slice(2);
const stacks = args.filter((a) => a in STACKS);
const numbers = args.filter((a) => /^\d$/.test(a)).map(Number);
const unknown = args.filter((a) => !(a in STACKS) && !/^\d$/.test(a));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown argument(s): ${unknown.join(' ')}\nusage: node scripts/chaos.mjs [embedded|scale-out] [1-8 ...]\n`,
  );
  process.exit(2);
}
for (const built of [
  'apps/server/dist/main.js',
  'apps/server/dist/cli/check-storage-command.js',
  'apps/web/dist/index.html',
])
  if (!fs.existsSync(path.join(root, built))) {
    process.stderr.write(`${built} is missing: run npm run chaos (it builds first) or npm run build\n`);
    process.exit(2);
  }

const rows = [];
for (const stackName of stacks.length > 0 ? stacks : Object.keys(STACKS)) {
  const chosen = SCENARIOS.filter(
    (s) => (numbers.length === 0 || numbers.includes(s.n)) && (!s.only || s.only === stackName),
  );
  if (chosen.length === 0) continue;
  const stack = await STACKS[stackName]();
  try {
    for (const scenario of chosen) {
      const started = performance.now();
      let line;
      try {
        const { ok, ...figures } = await scenario.run(stack);
        line = { scenario: `${scenario.n} ${scenario.name}`, stack: stackName, ok, ...figures };
      } catch (err) {
        line = { scenario: `${scenario.n} ${scenario.name}`, stack: stackName, ok: false, error: err.message };
      }
      line.wall_s = Math.round((performance.now() - started) / 1000);
      process.stdout.write(`${JSON.stringify(line)}\n`);
      rows.push(line);
    }
  } finally {
    await stack.close();
  }
}

// The table docs/deployment.md quotes ("Chaos check").
const figuresOf = ({ scenario: _s, stack: _t, ok: _o, ...figures }) =>
  Object.entries(figures)
    .map(([k, v]) => `${k} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : v}`)
    .join(', ');
process.stderr.write('\n| scenario | stack | figures | ok |\n|---|---|---|---|\n');
for (const r of rows)
  process.stderr.write(`| ${r.scenario} | ${r.stack} | ${figuresOf(r)} | ${r.ok ? 'yes' : 'NO'} |\n`);
process.exit(rows.every((r) => r.ok) ? 0 : 1);
