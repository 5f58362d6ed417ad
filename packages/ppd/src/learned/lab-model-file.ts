import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import type { FlatForest } from './flat-forest.js';
import type { LabModelMetrics, LabelledPixelCounts } from './lab-model-api.js';
import { FEATURE_NAMES, FEATURE_SETS, FEATURE_VERSION, PHOTO_FEATURE_COUNT } from './pixel-features.js';

/** The portable lab-model file (docs/model.md, "Lab models and the learned classifier"). */
export const LAB_MODEL_FORMAT = 'cassavascope-lab-model';
export const LAB_MODEL_VERSION = 1;
/** Larger files are refused before parsing (a model is a few hundred kB). */
export const LAB_MODEL_MAX_BYTES = 5 * 1024 * 1024;
/** The forest's classes, in order: index + 1 is the label value (`LABEL`). */
export const LAB_MODEL_CLASSES = ['background', 'healthy', 'lesion', 'excluded'] as const;

export class InvalidLabModelError extends Error {
  readonly code = 'invalid_lab_model';
  constructor(detail: string) {
    super(`not a CassavaScope lab model: ${detail}`);
    this.name = 'InvalidLabModelError';
  }
}

const count = z.number().int().nonnegative();
const metricsSchema = z.object({
  pixel_accuracy: z.number().min(0).max(1),
  lesion_iou: z.number().min(0).max(1),
  ppd_mae: z.number().min(0),
  baseline_ppd_mae: z.number().min(0),
});

const forestSchema = z.object({
  class_count: z.literal(LAB_MODEL_CLASSES.length),
  feature_count: z.number().int().positive(),
  roots: z.array(count).min(1).max(500),
  feature: z.array(z.number().int().min(-1)),
  threshold: z.array(z.number()),
  left: z.array(count),
  right: z.array(count),
  leaf: z.array(z.number().min(0).max(1)),
});

const fileSchema = z.object({
  format: z.literal(LAB_MODEL_FORMAT),
  version: z.literal(LAB_MODEL_VERSION),
  name: z.string().min(1).max(200),
  created: z.string().min(1),
  features: z.object({ version: z.number().int(), names: z.array(z.string()) }),
  classes: z.array(z.string()),
  forest: forestSchema,
  lesion_forest: forestSchema.optional(),
  training: z.object({
    image_count: count,
    labelled_pixels: z.object({ background: count, healthy: count, lesion: count, excluded: count }),
    metrics: metricsSchema.nullable(),
    validation: z.string(),
    trees: count,
    samples: count,
    seconds: z.number().nonnegative(),
  }),
});

export type LabModelFile = z.infer<typeof fileSchema>;

/** What a model file holds, parsed: the forest ready to walk, and what it says about itself. */
export interface LabModel {
  name: string;
  created: string;
  /** the first segmentation's forest (photo features) */
  forest: FlatForest;
  /** the second segmentation's forest (all features; feature version 2); null: `forest` reads both */
  lesionForest: FlatForest | null;
  training: LabModelFile['training'];
}

export interface LabModelFileInput {
  name: string;
  forest: FlatForest;
  lesionForest: FlatForest;
  created?: Date;
  training: {
    image_count: number;
    labelled_pixels: LabelledPixelCounts;
    metrics: LabModelMetrics | null;
    validation: string;
    samples: number;
    seconds: number;
  };
}

/** Float32 values written with the digits they hold (a JSON double of a float32 would be twice as long). */
const f32 = (v: number) => Number(Math.fround(v).toPrecision(7));
const r4 = (v: number) => Math.round(v * 1e4) / 1e4;

type ForestJson = LabModelFile['forest'];

const forestJson = (forest: FlatForest): ForestJson => ({
  class_count: forest.classCount as 4,
  feature_count: forest.featureCount,
  roots: Array.from(forest.roots),
  feature: Array.from(forest.feature),
  threshold: Array.from(forest.threshold, f32),
  left: Array.from(forest.left),
  right: Array.from(forest.right),
  leaf: Array.from(forest.leaf, r4),
});

const flatForest = (f: ForestJson): FlatForest => ({
  classCount: f.class_count,
  featureCount: f.feature_count,
  roots: Int32Array.from(f.roots),
  feature: Int16Array.from(f.feature),
  threshold: Float32Array.from(f.threshold),
  left: Int32Array.from(f.left),
  right: Int32Array.from(f.right),
  leaf: Float32Array.from(f.leaf),
});

export function writeLabModelFile(input: LabModelFileInput): Buffer {
  const { forest } = input;
  const m = input.training.metrics;
  const file: LabModelFile = {
    format: LAB_MODEL_FORMAT,
    version: LAB_MODEL_VERSION,
    name: input.name,
    created: (input.created ?? new Date()).toISOString(),
    features: { version: FEATURE_VERSION, names: [...FEATURE_NAMES] },
    classes: [...LAB_MODEL_CLASSES],
    forest: forestJson(forest),
    lesion_forest: forestJson(input.lesionForest),
    training: {
      ...input.training,
      metrics: m && {
        pixel_accuracy: r4(m.pixel_accuracy),
        lesion_iou: r4(m.lesion_iou),
        ppd_mae: r4(m.ppd_mae),
        baseline_ppd_mae: r4(m.baseline_ppd_mae),
      },
      trees: forest.roots.length,
    },
  };
  return Buffer.from(JSON.stringify(file));
}

/** The forest's arrays agree with each other, and every walk ends at a leaf (children come after parents). */
function checkForest(f: ForestJson): string | null {
  const n = f.feature.length;
  if (n === 0) return 'the forest has no nodes';
  if (f.threshold.length !== n || f.left.length !== n || f.right.length !== n)
    return 'the forest arrays differ in length';
  for (const r of f.roots) if (r >= n) return 'a tree root is out of range';
  for (let i = 0; i < n; i++) {
    const feat = f.feature[i]!;
    if (feat === -1) {
      if (f.left[i]! + f.class_count > f.leaf.length) return `leaf ${i} points past the leaf values`;
    } else {
      if (feat >= f.feature_count) return `node ${i} tests an unknown feature`;
      if (f.left[i]! <= i || f.right[i]! <= i || f.left[i]! >= n || f.right[i]! >= n)
        return `node ${i} has a child out of order`;
    }
  }
  return null;
}

/** Reads and checks a model file (JSON, or gzipped JSON); anything else throws InvalidLabModelError. */
export function readLabModelFile(bytes: Uint8Array): LabModel {
  if (bytes.byteLength === 0) throw new InvalidLabModelError('the file is empty');
  if (bytes.byteLength > LAB_MODEL_MAX_BYTES) throw new InvalidLabModelError('the file is larger than 5 MB');
  let text: string;
  try {
    const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: 64 << 20 }) : bytes;
    text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  } catch {
    throw new InvalidLabModelError('the gzip data is corrupt');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidLabModelError('the file is not JSON');
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== LAB_MODEL_FORMAT) throw new InvalidLabModelError(`format is not "${LAB_MODEL_FORMAT}"`);
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidLabModelError(`${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  const file = parsed.data;
  // a file of an older feature version is read as long as its features are still computed alike
  const names = FEATURE_SETS[file.features.version];
  if (!names) throw new InvalidLabModelError(`features.version: ${file.features.version} is not known to this engine`);
  if (file.features.names.join() !== names.join())
    throw new InvalidLabModelError('the feature list differs from this engine version');
  // the first segmentation's forest reads the photo features; the lesion forest (version 2 on) all of them
  const lesion = file.lesion_forest;
  if (file.forest.feature_count !== Math.min(names.length, PHOTO_FEATURE_COUNT))
    throw new InvalidLabModelError('forest.feature_count differs from the feature list');
  if (lesion && lesion.feature_count !== names.length)
    throw new InvalidLabModelError('lesion_forest.feature_count differs from the feature list');
  if (file.classes.join() !== LAB_MODEL_CLASSES.join())
    throw new InvalidLabModelError('the class list differs from this engine version');
  const problem = checkForest(file.forest) ?? (lesion ? checkForest(lesion) : null);
  if (problem) throw new InvalidLabModelError(problem);
  return {
    name: file.name,
    created: file.created,
    training: file.training,
    forest: flatForest(file.forest),
    lesionForest: lesion ? flatForest(lesion) : null,
  };
}
