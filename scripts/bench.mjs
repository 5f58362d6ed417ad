// `npm run bench [name...]`: runs scripts/bench/<name>.mjs (all of them by default), one after another.
// Each prints one JSON line per figure on stdout; nothing here passes or fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'bench');
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.mjs$/, '')))
  .sort();
for (const f of files) {
  process.stderr.write(`\n# bench ${f}\n`);
  // --single-threaded-gc as in production (package.json start/worker): see docs/model.md, Speed
  spawnSync(process.execPath, ['--expose-gc', '--single-threaded-gc', path.join(dir, f)], { stdio: 'inherit' });
}
