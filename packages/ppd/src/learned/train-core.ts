import sharp from 'sharp';
import { rgbToLab } from '../imaging/lab.js';
import { cropRgb, halve, type RgbImage } from '../imaging/raster.js';
import { createColourModel } from '../models/colour-model.js';
import type { SegmentationModel } from '../models/segmentation-model.js';
import { parseAnalysisParams } from '../params.js';
import { analyseImage, findWorkingSpecimens } from '../pipeline/analyse-image.js';
import { decodeImage } from '../pipeline/decode-image.js';
import { encodeWebp } from '../render/visualise.js';
import type { AnalysisParams } from '../types.js';
import { fitForest, rng, type FlatForest } from './flat-forest.js';
import {
  LABEL,
  type HeldOutPhoto,
  type LabelledPhoto,
  type LabelledPixelCounts,
  type LabModelMetrics,
  type TrainedLabModel,
} from './lab-model-api.js';
import { writeLabModelFile, type LabModel } from './lab-model-file.js';
import { cutFeatures, labSegmentation } from './lab-segmentation.js';
import { countLabels, labelsPpd, scaleLabels } from './label-image.js';
import { FEATURE_COUNT, PHOTO_FEATURE_COUNT, photoReference, pixelFeatures } from './pixel-features.js';

/** Training refuses what it cannot learn from; `code` is what the server reports. */
export class TrainingError extends Error {
  constructor(
    readonly code: 'not_enough_labels' | 'unreadable_photo',
    message: string,
  ) {
    super(message);
    this.name = 'TrainingError';
  }
}

/** The forest's size and sampling (measured in docs/architecture.md: 20 photos train in well under a minute). */
export const TRAINING = {
  /** labelled pixels kept per class per photo (a random draw), so no photo and no class drowns the others */
  perClassPerPhoto: 1500,
  /** trees of the model shipped; trees of the models fitted per validation fold (their metrics only) */
  trees: 24,
  foldTrees: 10,
  /** pixels each tree is grown on (see fitForest: the library's split search is quadratic in these) */
  perTree: 400,
  maxDepth: 12,
  maxFeatures: 0.6,
  /** up to this many photos each is held out in turn; more are split into this many folds by photo */
  leaveOneOutUpTo: 6,
  folds: 5,
} as const;

/** Same as the engine's own working copy (analyse-image.ts): big photos are first segmented at half size. */
const HALVE_ABOVE = 600;
const CLASS_COUNT = 4;

/** A uniform draw of at most `cap` rows per class from a stream of labelled pixels (reservoir sampling). */
class Sample {
  readonly rows: Float32Array[];
  readonly seen = new Int32Array(CLASS_COUNT);
  constructor(
    readonly width: number,
    readonly cap: number,
    private readonly random: () => number,
  ) {
    this.rows = Array.from({ length: CLASS_COUNT }, () => new Float32Array(cap * width));
  }

  /** Offers pixel `i` (of feature-major `features` over `n` pixels) labelled class `c`. */
  offer(c: number, features: Float32Array, n: number, i: number): void {
    const k = this.seen[c]!++;
    const slot = k < this.cap ? k : Math.floor(this.random() * (k + 1));
    if (slot >= this.cap) return;
    const row = this.rows[c]!;
    for (let f = 0; f < this.width; f++) row[slot * this.width + f] = features[f * n + i]!;
  }

  /** The rows kept, class by class, and their classes; `counts`: labelled pixels offered per class. */
  done(): Rows {
    const kept = Array.from(this.seen, (k) => Math.min(k, this.cap));
    const total = kept.reduce((a, b) => a + b, 0);
    const rows = new Float32Array(total * this.width);
    const classes = new Uint8Array(total);
    let r = 0;
    for (let c = 0; c < CLASS_COUNT; c++) {
      rows.set(this.rows[c]!.subarray(0, kept[c]! * this.width), r * this.width);
      classes.fill(c, r, r + kept[c]!);
      r += kept[c]!;
    }
    return { rows, classes, counts: Array.from(this.seen) };
  }
}

interface Rows {
  /** features (row-major) and forest class (label value - 1) of the sampled pixels */
  rows: Float32Array;
  classes: Uint8Array;
  /** labelled pixels per class the sample was drawn from */
  counts: number[];
}

interface Prepared {
  photo: LabelledPhoto;
  image: RgbImage;
  /** label values at the working size */
  labels: Uint8Array;
  counts: LabelledPixelCounts;
  /** the photo's sampled pixels: all labelled ones with their photo features (the first segmentation's forest) */
  photoRows: Rows;
  /** and those inside the specimens the default engine finds, with all features (the lesion forest) */
  specimenRows: Rows;
}

export interface TrainCoreOptions {
  name: string;
  seed?: number;
  trees?: number;
  onProgress?: (percent: number) => void;
}

async function prepare(
  photo: LabelledPhoto,
  random: () => number,
  colour: SegmentationModel,
  params: AnalysisParams,
): Promise<Prepared> {
  const decoded = await decodeImage(photo.image);
  if (!decoded.ok) throw new TrainingError('unreadable_photo', `photo ${photo.id}: ${decoded.message}`);
  const { image } = decoded.decoded;
  // the reference colours come from the copy the first segmentation reads, exactly as when scoring
  const small = Math.max(image.width, image.height) > HALVE_ABOVE ? halve(image) : image;
  const reference = photoReference(rgbToLab(small.data, small.width, small.height));
  const n = image.width * image.height;
  const labels = scaleLabels(photo.labels, image.width, image.height).values;
  // per class, a uniform draw of at most `perClassPerPhoto` labelled pixels (a painted 12 MP photo costs no
  // more memory than a stroke)
  const cap = TRAINING.perClassPerPhoto;
  const features = pixelFeatures(rgbToLab(image.data, image.width, image.height), reference, 1, PHOTO_FEATURE_COUNT);
  const whole = new Sample(PHOTO_FEATURE_COUNT, cap, random);
  for (let i = 0; i < n; i++) if (labels[i]! !== LABEL.unlabelled) whole.offer(labels[i]! - 1, features, n, i);
  // the lesion forest learns from each specimen's cut as scoring reads it (the specimens found here by the
  // default engine's first segmentation: the model being trained cannot find them yet)
  const inside = new Sample(FEATURE_COUNT, cap, random);
  for (const { specimen, kind } of await findWorkingSpecimens(colour, image, params)) {
    const { rect, mask } = specimen;
    const cut = cropRgb(image, rect);
    const all = await cutFeatures(cut, mask, kind, reference);
    const m = cut.width * cut.height;
    for (let y = 0; y < cut.height; y++)
      for (let x = 0; x < cut.width; x++) {
        const k = y * cut.width + x;
        const l = labels[(rect.y0 + y) * image.width + rect.x0 + x]!;
        if (mask[k] && l !== LABEL.unlabelled) inside.offer(l - 1, all, m, k);
      }
  }
  return {
    photo,
    image,
    labels,
    counts: countLabels(photo.labels.values),
    photoRows: whole.done(),
    specimenRows: inside.done(),
  };
}

/**
 * One forest on the rows of `parts` (`width` features a row), testing only the features listed in `use` (all
 * when absent); its nodes name features by their place in the full row.
 */
function fitRows(parts: Rows[], width: number, trees: number, seed: number, use?: readonly number[]): FlatForest {
  const cols = use ?? Array.from({ length: width }, (_, f) => f);
  const total = parts.reduce((s, p) => s + p.classes.length, 0);
  const rows = new Float32Array(total * cols.length);
  const classes = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    for (let r = 0; r < p.classes.length; r++)
      for (let k = 0; k < cols.length; k++) rows[(o + r) * cols.length + k] = p.rows[r * width + cols[k]!]!;
    classes.set(p.classes, o);
    o += p.classes.length;
  }
  const fitted = fitForest(rows, classes, cols.length, CLASS_COUNT, {
    trees,
    perTree: TRAINING.perTree,
    maxDepth: TRAINING.maxDepth,
    maxFeatures: TRAINING.maxFeatures,
    seed,
  });
  const forest = { ...fitted, featureCount: width, feature: fitted.feature.map((f) => (f < 0 ? f : cols[f]!)) };
  // Trees grow on class-balanced draws, which would read every pixel as rare lesion too often (PPD biased up):
  // each leaf's class shares are reweighted from the drawn to the labelled class frequencies.
  const labelled = Array.from({ length: CLASS_COUNT }, (_, c) => parts.reduce((s, p) => s + p.counts[c]!, 0));
  const present = labelled.filter((c, k) => c > 0 && classes.includes(k)).length;
  const all = labelled.reduce((a, b) => a + b, 0);
  // the draws are balanced over the classes present, so each class's drawn share is 1 / present
  const weight = labelled.map((c) => (c > 0 ? (c / all) * present : 0));
  const { leaf } = forest;
  for (let o = 0; o < leaf.length; o += CLASS_COUNT) {
    let shares = 0;
    for (let c = 0; c < CLASS_COUNT; c++) shares += leaf[o + c] = leaf[o + c]! * weight[c]!;
    if (shares > 0) for (let c = 0; c < CLASS_COUNT; c++) leaf[o + c] = leaf[o + c]! / shares;
  }
  return forest;
}

/** The two forests of a model: the first segmentation's on all labelled pixels, the lesion forest's inside specimens. */
function fit(prepared: Prepared[], trees: number, seed: number): { forest: FlatForest; lesionForest: FlatForest } {
  const forest = fitRows(
    prepared.map((p) => p.photoRows),
    PHOTO_FEATURE_COUNT,
    trees,
    seed,
  );
  const inside = prepared.map((p) => p.specimenRows);
  // no specimen found in any labelled photo: the lesion forest learns from what there is (it then reads as
  // little as the photo forest would)
  const has = (c: number) => inside.some((r) => r.counts[c]! > 0);
  const lesionForest =
    has(1) || has(2)
      ? fitRows(inside, FEATURE_COUNT, trees, seed + 7919, LESION_FEATURES)
      : fitRows(
          prepared.map((p) => ({ ...p.photoRows, rows: widen(p.photoRows.rows) })),
          FEATURE_COUNT,
          trees,
          seed + 7919,
        );
  return { forest, lesionForest };
}

/**
 * What the lesion forest may test: colour relative to the tissue (photo's and specimen's own) at three scales,
 * edges, texture and the default engine's reading; not absolute colour (L*, a*, b*,
 * chroma, hue, distance to the background), which tells one lab's photos of a few painted crops apart rather
 * than lesion from healthy tissue.
 */
const LESION_FEATURES = [3, 4, 5, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20];

/** Photo-feature rows padded with zero specimen features. */
function widen(rows: Float32Array): Float32Array {
  const count = rows.length / PHOTO_FEATURE_COUNT;
  const out = new Float32Array(count * FEATURE_COUNT);
  for (let r = 0; r < count; r++)
    out.set(rows.subarray(r * PHOTO_FEATURE_COUNT, (r + 1) * PHOTO_FEATURE_COUNT), r * FEATURE_COUNT);
  return out;
}

interface Reading {
  ppd: number;
  /** label values the engine proposes, at the working size */
  proposal: Uint8Array | null;
}

async function read(model: SegmentationModel, p: Prepared, params: AnalysisParams, lab: boolean): Promise<Reading> {
  // analyseImage only checks that a lab model is set (no refusals); the parsed model is `model` itself
  const options = lab ? { labModel: { id: 'training', file: new Uint8Array(0) } } : {};
  const r = await analyseImage(model, p.photo.image, params, 'proposal', options);
  if (!r.images.proposal) return { ppd: r.ppd_value ?? 0, proposal: null };
  const raw = await sharp(r.images.proposal).extractChannel(0).raw().toBuffer();
  return { ppd: r.ppd_value ?? 0, proposal: new Uint8Array(raw.buffer, raw.byteOffset, raw.length) };
}

/** The photo with the proposal's discoloured pixels filled red: the before/after views of held-out photos. */
function overlay(image: RgbImage, proposal: Uint8Array | null): Promise<Buffer> {
  const data = Uint8Array.from(image.data);
  if (proposal && proposal.length * 3 === data.length) {
    for (let i = 0; i < proposal.length; i++) {
      if (proposal[i] !== LABEL.lesion) continue;
      data[i * 3] = Math.round(data[i * 3]! * 0.4 + 230 * 0.6);
      data[i * 3 + 1] = Math.round(data[i * 3 + 1]! * 0.4 + 30 * 0.6);
      data[i * 3 + 2] = Math.round(data[i * 3 + 2]! * 0.4 + 30 * 0.6);
    }
  }
  return encodeWebp({ width: image.width, height: image.height, data });
}

interface PixelTally {
  labelled: number;
  agree: number;
  lesionAnd: number;
  lesionOr: number;
}

function tally(t: PixelTally, labels: Uint8Array, proposal: Uint8Array | null): void {
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i]!;
    if (l === LABEL.unlabelled) continue;
    const p = proposal ? proposal[i]! : LABEL.background;
    t.labelled++;
    if (p === l) t.agree++;
    if (p === LABEL.lesion && l === LABEL.lesion) t.lesionAnd++;
    if (p === LABEL.lesion || l === LABEL.lesion) t.lesionOr++;
  }
}

/** Photos grouped into validation folds: each alone up to 6 photos, else 5 folds (a seeded shuffle). */
export function foldsOf(count: number, seed: number): number[][] {
  const order = Array.from({ length: count }, (_, i) => i);
  if (count <= TRAINING.leaveOneOutUpTo) return order.map((i) => [i]);
  const random = rng(seed);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const folds: number[][] = Array.from({ length: TRAINING.folds }, () => []);
  order.forEach((photo, k) => folds[k % TRAINING.folds]!.push(photo));
  return folds;
}

export function validationName(count: number): string {
  return count <= TRAINING.leaveOneOutUpTo ? 'leave-one-photo-out' : `${TRAINING.folds}-fold by photo`;
}

/** Checks that the photos can teach anything; throws TrainingError('not_enough_labels') with what is missing. */
export function checkLabels(photos: LabelledPhoto[]): LabelledPixelCounts {
  const labelled = photos.filter((p) => p.labels.values.some((v) => v !== LABEL.unlabelled));
  if (labelled.length < 2)
    throw new TrainingError('not_enough_labels', 'at least 2 labelled photos are needed (one to learn, one to check)');
  const total: LabelledPixelCounts = { background: 0, healthy: 0, lesion: 0, excluded: 0 };
  for (const p of labelled) {
    const c = countLabels(p.labels.values);
    total.background += c.background;
    total.healthy += c.healthy;
    total.lesion += c.lesion;
    total.excluded += c.excluded;
  }
  if (total.healthy === 0) throw new TrainingError('not_enough_labels', 'no pixel is labelled healthy tissue');
  if (total.lesion === 0) throw new TrainingError('not_enough_labels', 'no pixel is labelled discoloured tissue');
  return total;
}

/**
 * Trains a lab model on the calling thread (trainLabModel runs this in a worker thread): samples labelled
 * pixels, measures models fitted without each fold on that fold's photos beside the default engine, then fits
 * the model shipped on every photo.
 */
export async function trainInProcess(input: LabelledPhoto[], options: TrainCoreOptions): Promise<TrainedLabModel> {
  const started = performance.now();
  const progress = (p: number) => options.onProgress?.(Math.max(0, Math.min(100, Math.round(p))));
  const labelledPixels = checkLabels(input);
  const photos = input.filter((p) => p.labels.values.some((v) => v !== LABEL.unlabelled));
  const seed = options.seed ?? 1;
  const trees = Math.max(1, Math.min(200, Math.round(options.trees ?? TRAINING.trees)));
  const random = rng(seed);
  const params = parseAnalysisParams({});
  if (!params.ok) throw new Error(params.message);
  const colour = createColourModel();
  const prepared: Prepared[] = [];
  for (const photo of photos) {
    prepared.push(await prepare(photo, random, colour, params.params));
    progress((30 * prepared.length) / photos.length);
  }

  const folds = foldsOf(prepared.length, seed);
  const heldout: HeldOutPhoto[] = [];
  const model: PixelTally = { labelled: 0, agree: 0, lesionAnd: 0, lesionOr: 0 };
  const base: PixelTally = { labelled: 0, agree: 0, lesionAnd: 0, lesionOr: 0 };
  let modelErr = 0;
  let baseErr = 0;
  for (let f = 0; f < folds.length; f++) {
    const out = new Set(folds[f]);
    const trainOn = prepared.filter((_, i) => !out.has(i));
    const forests = fit(trainOn, Math.min(trees, TRAINING.foldTrees), seed + f + 1);
    const foldModel: LabModel = {
      name: options.name,
      created: '',
      ...forests,
      training: {} as LabModel['training'],
    };
    for (const i of folds[f]!) {
      const p = prepared[i]!;
      const mine = await read(labSegmentation(foldModel), p, params.params, true);
      const theirs = await read(colour, p, params.params, false);
      tally(model, p.labels, mine.proposal);
      tally(base, p.labels, theirs.proposal);
      const truth = labelsPpd(p.counts);
      modelErr += Math.abs(mine.ppd - truth);
      baseErr += Math.abs(theirs.ppd - truth);
      heldout.push({
        id: p.photo.id,
        labels_ppd: Math.round(truth * 100) / 100,
        model_ppd: Math.round(mine.ppd * 100) / 100,
        baseline_ppd: Math.round(theirs.ppd * 100) / 100,
        model_overlay: await overlay(p.image, mine.proposal),
        baseline_overlay: await overlay(p.image, theirs.proposal),
      });
    }
    progress(30 + (55 * (f + 1)) / folds.length);
  }
  const metrics: LabModelMetrics = {
    pixel_accuracy: model.labelled > 0 ? model.agree / model.labelled : 0,
    lesion_iou: model.lesionOr > 0 ? model.lesionAnd / model.lesionOr : 0,
    ppd_mae: modelErr / prepared.length,
    baseline_ppd_mae: baseErr / prepared.length,
  };
  const forests = fit(prepared, trees, seed);
  const samples = prepared.reduce((s, p) => s + p.photoRows.classes.length + p.specimenRows.classes.length, 0);
  const file = writeLabModelFile({
    name: options.name,
    ...forests,
    training: {
      image_count: prepared.length,
      labelled_pixels: labelledPixels,
      metrics,
      validation: validationName(prepared.length),
      samples,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    },
  });
  progress(100);
  return { file, metrics, labelled_pixels: labelledPixels, image_count: prepared.length, heldout };
}
