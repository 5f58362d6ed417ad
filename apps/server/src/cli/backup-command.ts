import { backup } from '../backup/backup.js';
import { loadConfigOrReport } from '../config/config.js';

const USAGE = `Backs up the installation the environment names (DATA_DIR, or DATABASE_URL and S3_*), while it runs:

  npm run backup -- --to /backups/cassavascope-2026-11-27 [--json]

Embedded default: the SQLite database (online backup) and DATA_DIR/blobs; the folder is then itself a DATA_DIR.
PostgreSQL + S3: pg_dump --format=custom of the database (PATH or PG_BIN) and every object of the bucket.
Files go to <folder>/blobs/. A folder holding an earlier backup is brought up to date; another non-empty one
is refused. Restore with npm run restore (docs/deployment.md, "Backup and restore").`;

/** `npm run backup -- --to DIR`: see USAGE. */
async function main(argv: string[]): Promise<number> {
  const toIndex = argv.indexOf('--to');
  const to = toIndex >= 0 ? argv[toIndex + 1] : undefined;
  if (argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!to || argv.some((a, i) => a.startsWith('--') && a !== '--to' && a !== '--json' && i !== toIndex + 1)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfigOrReport();
  if (!config) return 2;
  const json = argv.includes('--json');
  const manifest = await backup(config, to, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(
    json
      ? `${JSON.stringify(manifest)}\n`
      : `Backed up the ${manifest.database === 'postgres' ? 'PostgreSQL' : 'SQLite'} database (as of ${manifest.database_at}) and ${manifest.files} files (${manifest.bytes} bytes; ${manifest.skipped} were there already) to ${to}\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
