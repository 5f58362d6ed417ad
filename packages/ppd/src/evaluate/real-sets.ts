import fs from 'node:fs/promises';
import path from 'node:path';
import { CBSD_HELDOUT } from './cbsd-labelled-split.js';
import { maskBox, readLabelledFolder, walk, type LabelledPhoto } from './labelled-folder.js';

/**
 * The sets the engine is judged on, each separately (issue 22: a gain on one set must not hide a loss on
 * another), read from a folder laid out as ../shared/real-photos (its README describes every photo):
 * - `roots`: the 12 labelled slice crops (a person's pixel labels) and the single-slice photos of roots/;
 * - `tray`: the tray of 15 slices (outlines and careful by-eye scores per slice);
 * - `cbsd-heldout`: the held-out part of cbsd-labelled/ (cbsd-labelled-split.ts), never trained or tuned on;
 * - `leaves`: detached cassava leaflets on white paper, judged by the photo's reading against the README's
 *   by-eye values;
 * - `refusals`: photos that are no specimen photo (field photos of leaves on the plant, a basket of roots).
 */
export const SET_NAMES = ['roots', 'tray', 'cbsd-heldout', 'leaves', 'refusals'] as const;
export type RealSetName = (typeof SET_NAMES)[number];

export interface SetPhoto extends LabelledPhoto {
  set: string;
}

/** By-eye PPD of the detached leaf photos (share of the leaf area with symptoms x 10; real-photos/README.md). */
export const LEAF_BY_EYE: Readonly<Record<string, number>> = {
  'cropsurv_white_healthy_1.jpg': 0,
  'cropsurv_white_healthy_2.jpg': 0,
  'cropsurv_white_mosaic_1.jpg': 3,
  'cropsurv_white_mosaic_2.jpg': 3,
  'cropsurv_white_mosaic_3.jpg': 4,
};

const TRAY = 'cbsd_tray_cassava1.jpg';

/** Field photos and leaves on the plant: no specimen photo, every one to refuse. */
function isRefusal(name: string): boolean {
  const parts = name.split(path.sep);
  const base = parts[parts.length - 1]!;
  return (
    parts[0] === 'field-leaves' ||
    (parts[0] === 'leaves' && (/^cropsurv_natural_/.test(base) || base === 'cropsurv_field_leaf_on_plant.jpg'))
  );
}

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

/** True when `root` is laid out as ../shared/real-photos (then `ppd evaluate` reports it set by set). */
export async function isRealPhotosFolder(root: string): Promise<boolean> {
  return (await exists(path.join(root, 'truth.json'))) && (await exists(path.join(root, 'roots')));
}

/** The photos of the chosen sets (all by default), in set order; a set whose photos are absent is empty. */
export async function readRealSets(root: string, names: readonly RealSetName[] = SET_NAMES): Promise<SetPhoto[]> {
  const want = new Set(names);
  const labelled = await readLabelledFolder(root, ['field-leaves']);
  const out: SetPhoto[] = [];
  const under = (p: LabelledPhoto, dir: string) => p.name.split(path.sep)[0] === dir;
  const add = (set: RealSetName, photos: LabelledPhoto[]) => {
    if (want.has(set)) out.push(...photos.map((p) => ({ ...p, set })));
  };
  add(
    'roots',
    labelled.filter((p) => under(p, 'roots') && p.expect === 'score' && path.basename(p.name) !== TRAY),
  );
  add(
    'tray',
    labelled.filter((p) => under(p, 'roots') && path.basename(p.name) === TRAY),
  );
  if (want.has('cbsd-heldout')) add('cbsd-heldout', await readCbsdHeldout(root));
  if (want.has('leaves')) add('leaves', await readLeaves(root));
  add(
    'refusals',
    labelled
      .filter((p) => p.expect === 'refuse' || isRefusal(p.name))
      .map((p) => ({ ...p, expect: 'refuse' as const, specimens: [] })),
  );
  return out;
}

/** cbsd-labelled's held-out crops: the box of the labelled slice and its labelled PPD. */
async function readCbsdHeldout(root: string): Promise<LabelledPhoto[]> {
  const dir = path.join(root, 'cbsd-labelled');
  const labelsFile = path.join(dir, 'labels.json');
  if (!(await exists(labelsFile))) return [];
  const labels = JSON.parse(await fs.readFile(labelsFile, 'utf8')) as {
    crops: { file: string; mask: string; labelled_ppd: number }[];
  };
  const held = new Set(CBSD_HELDOUT);
  const photos: LabelledPhoto[] = [];
  for (const c of labels.crops.filter((x) => held.has(x.file))) {
    photos.push({
      file: path.join(dir, c.file),
      name: path.join('cbsd-labelled', c.file),
      expect: 'score',
      specimens: [{ box: await maskBox(path.join(dir, c.mask)), ppd: c.labelled_ppd }],
      kind: 'root_slice',
    });
  }
  return photos;
}

/** The detached leaf photos of leaves/ with a by-eye value, each judged as a whole. */
async function readLeaves(root: string): Promise<LabelledPhoto[]> {
  const dir = path.join(root, 'leaves');
  if (!(await exists(dir))) return [];
  return (await walk(dir))
    .filter((file) => path.basename(file) in LEAF_BY_EYE)
    .map((file) => ({
      file,
      name: path.relative(root, file),
      expect: 'score' as const,
      specimens: [{ box: null, ppd: LEAF_BY_EYE[path.basename(file)]! }],
      kind: 'leaf',
      wholePhoto: true,
    }));
}
