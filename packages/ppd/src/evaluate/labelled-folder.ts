import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Box } from '../types.js';

/**
 * A labelled folder of real photos, as `../shared/real-photos` lays it out: `truth.json` at the top maps a file
 * name to what a person saw in it. Entries the evaluator understands:
 * - `specimens`: how many specimens the photo holds (0 = a photo that must be refused);
 * - `kind`: `root_slice`, `leaf` or `out_of_scope` (must be refused);
 * - `labelled_ppd`: one specimen's PPD from a person's pixel labels, with `mask`: that label image, where
 *   (40,40,40) marks "not specimen" (the specimen's box comes from it);
 * - `mask` + `slices`: a label image whose pixel value is the specimen's number, and a file whose `slices[]`
 *   carry `index`, `bbox` [x, y, w, h] and `ppd_by_eye`.
 * Photos without an entry are scored and listed, and count as expected refusals when they sit under a folder
 * named with `refuse` (e.g. field photos of plants).
 */
export interface TruthSpecimen {
  box: Box | null;
  ppd: number | null;
}

export interface LabelledPhoto {
  file: string;
  /** path below the folder, used in reports */
  name: string;
  /** what a person expects: refuse the photo, or score this many specimens */
  expect: 'refuse' | 'score' | 'unknown';
  specimens: TruthSpecimen[];
  kind: string | null;
  /**
   * The one truth specimen stands for the whole photo: compared with the photo's `ppd_value`, however many
   * specimens the engine finds (a detached leaf photographed as several leaflets running past the frame).
   */
  wholePhoto?: boolean;
}

const IMAGE = /\.(jpe?g|png|webp|tiff?|avif|heic|heif|gif)$/i;

export async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(full)));
    else if (e.isFile() && IMAGE.test(e.name)) out.push(full);
  }
  return out;
}

/** Bounding box of each label of a label image: `labelOf(r, g, b)` gives the label, <= 0 for none. */
export async function labelBoxes(
  file: string,
  labelOf: (r: number, g: number, b: number) => number,
): Promise<Map<number, Box>> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const ext = new Map<number, { x0: number; y0: number; x1: number; y1: number }>();
  const c = info.channels;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * c;
      const id = c >= 3 ? labelOf(data[i]!, data[i + 1]!, data[i + 2]!) : labelOf(data[i]!, data[i]!, data[i]!);
      if (id <= 0) continue;
      const e = ext.get(id) ?? { x0: x, y0: y, x1: x, y1: y };
      e.x0 = Math.min(e.x0, x);
      e.y0 = Math.min(e.y0, y);
      e.x1 = Math.max(e.x1, x);
      e.y1 = Math.max(e.y1, y);
      ext.set(id, e);
    }
  }
  return new Map([...ext].map(([id, e]) => [id, { x: e.x0, y: e.y0, w: e.x1 - e.x0 + 1, h: e.y1 - e.y0 + 1 }]));
}

/** The box of a person's mask drawn as `masks/` (40,40,40 = not specimen, any other colour = specimen). */
export async function maskBox(file: string): Promise<Box | null> {
  const boxes = await labelBoxes(file, (r, g, b) => (r === 40 && g === 40 && b === 40 ? 0 : 1));
  return boxes.get(1) ?? null;
}

/** Reads a labelled folder; photos under a path containing one of `refuseDirs` are expected refusals. */
export async function readLabelledFolder(root: string, refuseDirs: string[] = []): Promise<LabelledPhoto[]> {
  const truthFile = path.join(root, 'truth.json');
  const truth = JSON.parse(await fs.readFile(truthFile, 'utf8').catch(() => '{}')) as Record<
    string,
    Record<string, unknown>
  >;
  const photos: LabelledPhoto[] = [];
  for (const file of await walk(root)) {
    const name = path.relative(root, file);
    const base = path.basename(file);
    // label images are not photos
    if (/mask\.png$|_mask\.png$/i.test(base) || name.split(path.sep).includes('masks')) continue;
    const t = truth[base] ?? truth[name];
    if (!t) {
      const refuse = refuseDirs.some((d) => name.split(path.sep).includes(d));
      photos.push({ file, name, expect: refuse ? 'refuse' : 'unknown', specimens: [], kind: null });
      continue;
    }
    const count = typeof t.specimens === 'number' ? t.specimens : 1;
    const kind = typeof t.kind === 'string' ? t.kind : null;
    if (count === 0 || kind === 'out_of_scope') {
      photos.push({ file, name, expect: 'refuse', specimens: [], kind });
      continue;
    }
    let specimens: TruthSpecimen[] = Array.from({ length: count }, () => ({ box: null, ppd: null }));
    if (typeof t.slices === 'string' && typeof t.mask === 'string') {
      const slices = JSON.parse(await fs.readFile(path.join(root, t.slices), 'utf8')) as {
        slices: { index: number; bbox: [number, number, number, number]; ppd_by_eye?: number }[];
      };
      specimens = slices.slices.map((s) => ({
        box: { x: s.bbox[0], y: s.bbox[1], w: s.bbox[2], h: s.bbox[3] },
        ppd: typeof s.ppd_by_eye === 'number' ? s.ppd_by_eye : null,
      }));
    } else if (typeof t.mask === 'string' && count === 1) {
      specimens = [
        {
          box: await maskBox(path.join(root, t.mask)),
          ppd: typeof t.labelled_ppd === 'number' ? t.labelled_ppd : null,
        },
      ];
    } else if (count === 1 && typeof t.labelled_ppd === 'number') {
      specimens = [{ box: null, ppd: t.labelled_ppd }];
    }
    photos.push({ file, name, expect: 'score', specimens, kind });
  }
  return photos;
}
