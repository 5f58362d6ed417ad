#!/usr/bin/env node
// `ppd score <files or folders>`: runs the built CLI from dist/, or the TypeScript sources through tsx when
// the package has not been built yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
  const tsx = import.meta.resolve('tsx');
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', tsx, source, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exitCode = run.status ?? 1;
}
