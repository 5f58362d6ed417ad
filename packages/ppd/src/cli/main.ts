import { runCli } from './score-cli.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stderrIsTty: process.stderr.isTTY === true,
});
process.exitCode = code;
