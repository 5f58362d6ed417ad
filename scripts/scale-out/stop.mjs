// `node scripts/scale-out/stop.mjs [stateFile]`: stops what start.mjs started and removes its data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopFromState } from './services.mjs';

const stateFile = process.argv[2] ?? path.join(os.tmpdir(), 'cassava-scale-out.json');
if (!fs.existsSync(stateFile)) {
  process.stderr.write(`${stateFile} not found: nothing to stop.\n`);
  process.exit(0);
}
stopFromState(JSON.parse(fs.readFileSync(stateFile, 'utf8')));
fs.rmSync(stateFile, { force: true });
process.stderr.write('scale-out services stopped\n');
