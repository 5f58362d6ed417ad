import type { StorageProblem } from '@cassavascope/contract';
import { ConfigError, loadConfig } from '../config/config.js';
import { openDatabase, type Db } from '../db/database.js';
import { createLogger } from '../logger.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { createStorage } from '../storage/create-storage.js';
import { StorageChecks } from '../storage-check/storage-check.service.js';

const USAGE = `Checks every stored file against the database (the same DATA_DIR or DATABASE_URL and storage the server uses):
an image's original must be stored with the bytes of its sha256 and size; its thumbnail, result pictures, label
images and lab model files must be there (a model file with its recorded size); a stored file no row names is
untracked. Safe while the server runs. The result is also shown on the Connection screen and in GET /api/status/.

  npm run check-storage [-- --json] [--grace-minutes N] [--max-problems N]

  --json             one JSON object on standard output instead of text
  --grace-minutes N  files younger than N minutes are not judged untracked (default: STORAGE_CHECK_GRACE_MINUTES, 60)
  --max-problems N   problems listed in the JSON (default 10000; all are counted)

Exit status: 0 nothing wrong, 1 missing, corrupt or untracked files found, 2 bad usage or configuration,
3 the check could not finish (database or storage not answering).`;

class UsageError extends Error {}

function numberOption(argv: string[], name: string): number | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = Number(argv[i + 1]);
  if (argv[i + 1] === undefined || !Number.isFinite(value) || value < 0)
    throw new UsageError(`${name} needs a number (0 or more)`);
  return value;
}

/** One problem as a line of text. */
function describeProblem(p: StorageProblem): string {
  const owner =
    p.id === null
      ? 'no row names it'
      : p.file === 'result'
        ? `file of result ${p.id}${p.name ? ` ("${p.name}")` : ''}`
        : p.file === 'model'
          ? `file of lab model ${p.id}${p.name ? ` ("${p.name}")` : ''}`
          : p.file === 'label'
            ? `label image of image ${p.id}`
            : `${p.file} of image ${p.id}${p.name ? ` ("${p.name}")` : ''}`;
  let line = `${p.kind.toUpperCase().padEnd(10)} ${p.key}  ${owner}`;
  if (p.kind === 'corrupt' && p.expected && p.actual) {
    const hash =
      p.expected.sha256 && p.actual.sha256 && p.expected.sha256 !== p.actual.sha256
        ? `; sha256 ${p.actual.sha256}, expected ${p.expected.sha256}`
        : '';
    line += `: ${p.actual.size} bytes, expected ${p.expected.size}${hash}`;
  }
  return line;
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${bytes} bytes`;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const known = new Set(['--json', '--grace-minutes', '--max-problems']);
  for (let i = 0; i < argv.length; i++) {
    if (!known.has(argv[i]!)) throw new UsageError(`unknown argument: ${argv[i]}`);
    if (argv[i] !== '--json') i++;
  }
  const json = argv.includes('--json');
  const graceMinutes = numberOption(argv, '--grace-minutes');
  const maxProblems = numberOption(argv, '--max-problems') ?? 10_000;
  const config = loadConfig();

  let db: Db | undefined;
  let storage: BlobStorage | undefined;
  try {
    try {
      db = await openDatabase(config);
      storage = await createStorage(config);
    } catch (err) {
      process.stderr.write(`check-storage: ${err instanceof Error ? err.message : String(err)}\n`);
      return 3;
    }
    if (!json)
      process.stdout.write(
        `Checking the stored files of ${config.databaseUrl ? 'PostgreSQL' : `${config.dataDir}`} (${storage.kind === 's3' ? `bucket ${config.s3?.bucket}` : 'local files'})...\n`,
      );
    const checks = new StorageChecks({ db, storage, log: createLogger('silent') }, config.storageCheck);
    const run = checks.claimAndRun('command', null, {
      maxProblems,
      whenBusy: 'run',
      ...(graceMinutes !== undefined ? { graceMs: Math.round(graceMinutes * 60_000) } : {}),
      ...(json ? {} : { onProblem: (p: StorageProblem) => process.stdout.write(`${describeProblem(p)}\n`) }),
    });
    const outcome = await run.finished;
    if (!outcome) throw new Error('the check did not run');
    const { report, recorded, error } = outcome;
    const wrong = report.missing + report.corrupt + report.untracked;
    if (json) {
      process.stdout.write(
        `${JSON.stringify({
          ok: wrong === 0 && !error,
          storage: report.storage,
          database: db.dialect,
          files: report.files,
          bytes: report.bytes,
          listed: report.listed,
          missing: report.missing,
          corrupt: report.corrupt,
          untracked: report.untracked,
          problems: report.problems.slice(0, maxProblems),
          problems_truncated: wrong > Math.min(report.problems.length, maxProblems),
          recorded,
          error: error?.message ?? null,
        })}\n`,
      );
    } else {
      const found =
        wrong === 0
          ? 'nothing missing, corrupt or untracked'
          : `${report.missing} missing, ${report.corrupt} corrupt, ${report.untracked} untracked`;
      process.stdout.write(
        `Checked ${report.files} files the database names (${sizeText(report.bytes)} read and hashed) and ${report.listed} stored files: ${found}.\n`,
      );
      if (!recorded && !error)
        process.stdout.write('(Not recorded for the Connection screen: the server was running a check of its own.)\n');
    }
    if (error) {
      process.stderr.write(`check-storage: the check could not finish: ${error.message}\n`);
      return 3;
    }
    return wrong > 0 ? 1 : 0;
  } finally {
    await db?.close();
    (storage as { close?: () => void } | undefined)?.close?.();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const usage = err instanceof UsageError || err instanceof ConfigError;
    process.stderr.write(`check-storage: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
    process.exit(usage ? 2 : 3);
  },
);
