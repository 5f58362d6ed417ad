import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCbsdMask } from '../../src/learned/cbsd-mask.js';
import type { LabelledPhoto } from '../../src/index.js';

/** The real labelled CBSD slices beside the repository (never copied into it); absent on some machines. */
export const CBSD_LABELLED = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/real-photos/cbsd-labelled',
);
export const haveCbsdLabelled = fs.existsSync(CBSD_LABELLED);

/** Photo ids in name order (cbsd_004, cbsd_005, ...). */
export function cbsdIds(): string[] {
  if (!haveCbsdLabelled) return [];
  return fs
    .readdirSync(CBSD_LABELLED)
    .filter((f) => /^cbsd_\d+\.png$/.test(f))
    .map((f) => f.slice(0, -4))
    .sort();
}

export async function cbsdPhoto(id: string): Promise<LabelledPhoto> {
  return {
    id,
    image: fs.readFileSync(path.join(CBSD_LABELLED, `${id}.png`)),
    labels: await readCbsdMask(path.join(CBSD_LABELLED, `${id}_mask.png`)),
  };
}

/** PPD of the labels: labelled discoloured / labelled tissue x 10. */
export function labelsPpd(p: LabelledPhoto): number {
  let healthy = 0;
  let lesion = 0;
  for (const v of p.labels.values) {
    if (v === 2) healthy++;
    else if (v === 3) lesion++;
  }
  return (10 * lesion) / Math.max(1, healthy + lesion);
}
