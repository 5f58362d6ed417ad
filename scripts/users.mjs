// `npm run users -- add NAME --role admin` (and `password NAME`, `list`): builds the server when it is not
// built yet, then runs apps/server/src/cli/users-command.ts's build. The password is asked for, never an argument.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (!fs.existsSync('apps/server/dist/cli/users-command.js')) {
  const build = spawnSync(
    'npm',
    ['run', 'build', '-w', '@cassavascope/contract', '-w', '@cassavascope/ppd', '-w', '@cassavascope/server'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('../apps/server/dist/cli/users-command.js');
