import { restore } from '../backup/restore.js';
import { loadConfigOrReport } from '../config/config.js';

const USAGE = `Restores a backup made by npm run backup into an empty installation, the one the environment names:

  npm run restore -- --from /backups/cassavascope-2026-11-27 [--resume-files] [--json]

Embedded default: DATA_DIR must hold no database yet. PostgreSQL + S3: DATABASE_URL must name an empty
database (pg_restore from PATH or PG_BIN) and S3_* the bucket the files go to. Stop nothing: the target is new.
--resume-files: the database was restored by an interrupted run; put only the files not stored yet.
Then start the server on it and run npm run check-storage (docs/deployment.md, "Backup and restore").`;

/** `npm run restore -- --from DIR`: see USAGE. */
async function main(argv: string[]): Promise<number> {
  const fromIndex = argv.indexOf('--from');
  const from = fromIndex >= 0 ? argv[fromIndex + 1] : undefined;
  if (argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const flags = new Set(['--from', '--resume-files', '--json']);
  if (!from || argv.some((a, i) => a.startsWith('--') && !flags.has(a) && i !== fromIndex + 1)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfigOrReport();
  if (!config) return 2;
  const report = await restore(config, from, argv.includes('--resume-files'), (line) =>
    process.stderr.write(`${line}\n`),
  );
  process.stdout.write(
    argv.includes('--json')
      ? `${JSON.stringify(report)}\n`
      : `Restored the ${report.database === 'postgres' ? 'PostgreSQL' : 'SQLite'} database as of ${report.database_at} and ${report.files} files (${report.bytes} bytes; ${report.skipped} were there already)\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`restore failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
