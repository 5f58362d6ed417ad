import { runEvaluate } from './evaluate-cli.js';
import { runCli } from './score-cli.js';
import { runTrain } from './train-cli.js';

const io = {
  stdout: (s: string) => process.stdout.write(s),
  stderr: (s: string) => process.stderr.write(s),
  stderrIsTty: process.stderr.isTTY === true,
};
const argv = process.argv.slice(2);
process.exitCode =
  argv[0] === 'evaluate'
    ? await runEvaluate(argv.slice(1), io)
    : argv[0] === 'train'
      ? await runTrain(argv.slice(1), io)
      : await runCli(argv, io);
