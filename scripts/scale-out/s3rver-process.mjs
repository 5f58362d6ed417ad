// Runs s3rver on a free 127.0.0.1 port and writes that port to a file (argv: dataDir portFile).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// s3rver is a devDependency of apps/server.
const require = createRequire(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/package.json'),
);
const S3rver = require('s3rver');
const [dataDir, portFile] = process.argv.slice(2);
fs.mkdirSync(dataDir, { recursive: true });
const server = new S3rver({ address: '127.0.0.1', port: 0, directory: dataDir, silent: true, vhostBuckets: false });
const { port } = await server.run();
fs.writeFileSync(`${portFile}.tmp`, String(port));
fs.renameSync(`${portFile}.tmp`, portFile);
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
