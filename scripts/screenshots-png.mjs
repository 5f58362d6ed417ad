// `npm run screenshots:png`: copies the browser tests' pictures (JPEG, apps/web/test/screenshots/) as PNG into
// apps/web/test/screenshots/png/, for viewers that show PNG only. Optional arguments keep the names that contain
// any of them (`npm run screenshots:png -- home- zh-390`). The tests save JPEG: half the CPU of a PNG per picture.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/test/screenshots');
const out = path.join(dir, 'png');
const wanted = process.argv.slice(2);
if (!fs.existsSync(dir)) {
  console.error(`${dir} does not exist: run the browser tests first (npm test)`);
  process.exit(1);
}
fs.mkdirSync(out, { recursive: true });
const names = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.jpg') && (wanted.length === 0 || wanted.some((w) => f.includes(w))));
for (const name of names)
  await sharp(path.join(dir, name))
    .png()
    .toFile(path.join(out, name.replace(/\.jpg$/, '.png')));
console.log(`${names.length} pictures as PNG in ${out}`);
