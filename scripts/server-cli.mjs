// `npm run check-storage`, `npm run backup`, `npm run restore` (package.json): builds the server when it is not
// built yet, then runs apps/server/src/cli/<command>-command.ts's build with the arguments after the command name.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const COMMANDS = { 'check-storage': 'check-storage-command', backup: 'backup-command', restore: 'restore-command' };
const name = process.argv[2];
const file = COMMANDS[name];
if (!file) {
  process.stderr.write(`usage: node scripts/server-cli.mjs ${Object.keys(COMMANDS).join('|')} [arguments]\n`);
  process.exit(2);
}
const built = `apps/server/dist/cli/${file}.js`;
if (!fs.existsSync(built)) {
  const build = spawnSync(
    'npm',
    ['run', 'build', '-w', '@cassavascope/contract', '-w', '@cassavascope/ppd', '-w', '@cassavascope/server'],
    // The build's output goes to standard error: standard output is the command's (e.g. --json).
    { stdio: ['ignore', 2, 'inherit'] },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The command reads process.argv.slice(2): its own arguments, without the command name.
process.argv.splice(2, 1);
await import(`../${built}`);
