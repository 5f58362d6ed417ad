// `node scripts/scale-out/start.mjs [stateFile]`: starts a throwaway PostgreSQL cluster and s3rver on
// 127.0.0.1 and prints `export` lines for the tests (TEST_DATABASE_URL, TEST_S3_ENDPOINT, ...).
// Stop them with `node scripts/scale-out/stop.mjs [stateFile]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScaleOutServices } from './services.mjs';

const stateFile = process.argv[2] ?? path.join(os.tmpdir(), 'cassava-scale-out.json');
if (fs.existsSync(stateFile)) {
  process.stderr.write(
    `${stateFile} exists: services already running? Stop them first (scripts/scale-out/stop.mjs).\n`,
  );
  process.exit(1);
}
try {
  const services = await startScaleOutServices({ detached: true });
  fs.writeFileSync(stateFile, JSON.stringify(services.state));
  for (const [k, v] of Object.entries(services.env)) process.stdout.write(`export ${k}=${v}\n`);
  process.stderr.write(`state saved in ${stateFile}\n`);
  process.exit(0);
} catch (err) {
  process.stderr.write(`could not start the scale-out services: ${err.message}\n`);
  process.exit(1);
}
