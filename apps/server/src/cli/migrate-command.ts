import { loadConfigOrReport } from '../config/config.js';
import { migrateSqliteToPostgres } from './migrate-sqlite-to-postgres.js';

const USAGE = `Copies an embedded CassavaScope installation (SQLite + local blobs) to PostgreSQL + S3.

  DATABASE_URL=postgres://... S3_ENDPOINT=... S3_BUCKET=... [S3_*] \\
    node apps/server/dist/cli/migrate-command.js --from <old DATA_DIR> [--resume-blobs]

The target is configured exactly as the servers will be (DATABASE_URL, S3_*). Stop the old server first.
The target database must be empty (fresh); --resume-blobs re-runs only the blob copy after a failure.`;

/** `node apps/server/dist/cli/migrate-command.js --from DATA_DIR`: see USAGE. */
async function main(argv: string[]): Promise<number> {
  const fromIndex = argv.indexOf('--from');
  const from = fromIndex >= 0 ? argv[fromIndex + 1] : undefined;
  if (!from || argv.includes('--help')) {
    process.stderr.write(`${USAGE}\n`);
    return argv.includes('--help') ? 0 : 2;
  }
  const target = loadConfigOrReport();
  if (!target) return 2;
  const report = await migrateSqliteToPostgres({
    sourceDataDir: from,
    target,
    resumeBlobs: argv.includes('--resume-blobs'),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(report)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
