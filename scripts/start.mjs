// `npm start`: builds whatever is not built yet, then runs the server (API + web app on one port).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const outputs = [
  'packages/contract/dist/index.js',
  'packages/ppd/dist/index.js',
  'apps/server/dist/main.js',
  'apps/web/dist/index.html',
];
if (outputs.some((f) => !fs.existsSync(f))) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('../apps/server/dist/main.js');
