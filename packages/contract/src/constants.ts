/** Business constants of the spec (section 9), shared by server, engine and web. */

/** Severity bands: healthy PPD < 4, mild 4 <= PPD < 7, severe PPD >= 7. */
export const PPD_MILD_FROM = 4;
export const PPD_SEVERE_FROM = 7;

export type Severity = 'healthy' | 'mild' | 'severe';
export const SEVERITIES: readonly Severity[] = ['healthy', 'mild', 'severe'];

/** The band of a PPD value; a non-numeric value counts as 0 (spec section 5). */
export function severityOf(ppd: unknown): Severity {
  const v = typeof ppd === 'number' && Number.isFinite(ppd) ? ppd : 0;
  if (v >= PPD_SEVERE_FROM) return 'severe';
  if (v >= PPD_MILD_FROM) return 'mild';
  return 'healthy';
}

/** Histogram bins, half-open: [0,4) [4,7) [7,8) [8,10) [10, ...). Keys as the API names them. */
export const HISTOGRAM_BINS = [
  { key: '>=10', from: 10, to: Number.POSITIVE_INFINITY },
  { key: '8-10', from: 8, to: 10 },
  { key: '7-8', from: 7, to: 8 },
  { key: '4-7', from: 4, to: 7 },
  { key: '0-4', from: Number.NEGATIVE_INFINITY, to: 4 },
] as const;
export type HistogramKey = (typeof HISTOGRAM_BINS)[number]['key'];

/** Size buckets of the images quick-jump index (bytes). */
export const SIZE_BUCKET_1MB = 1_048_576;
export const SIZE_BUCKET_5MB = 5_242_880;

export const TASK_NAME_MAX = 50;
export const FOLDER_NAME_MAX = 100;
export const SPLIT_COUNT = 32;
/** Estimated prediction time: images x 0.3 s, rounded up. */
export const SECONDS_PER_IMAGE_ESTIMATE = 0.3;
export const API_TIMEOUT_MS = 10_000;
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 1000;

/** The one model the spec offers. */
export const MODEL_TYPE = 'deeplabv3plus_resnet101';
export const SINGLE_MODEL_TYPE = 'resnet101';
export const MODEL_LABEL = 'DeepLabV3+ ResNet-101';

/** Slider ranges and defaults of spec section 5. */
export const PARAMETER_RANGES = {
  confidence: { min: 0.1, max: 1, step: 0.1, default: 0.5 },
  advancedConfidence: { min: 0.1, max: 0.9, step: 0.05, default: 0.5 },
  minArea: { min: 10, max: 1000, step: 10, default: 100 },
  morphKernel: { min: 1, max: 15, step: 2, default: 5 },
  morphIterations: { min: 1, max: 10, step: 1, default: 1 },
  overlayOpacity: { min: 0.1, max: 0.9, step: 0.05, default: 0.3 },
} as const;

/** Review (api.md, Predictions): a reviewer's note is at most this long; a box drawn to add a specimen at least this wide and high. */
export const REVIEW_NOTE_MAX = 500;
export const SPECIMEN_BOX_MIN = 8;
/** PPD is on the 0-10 scale (a reviewer's value must lie in it). */
export const PPD_MIN = 0;
export const PPD_MAX = 10;
/** PPD >= this counts as "disease" in task statistics (api.md, Tasks): the mild band's lower limit. */
export const DISEASE_FROM = PPD_MILD_FROM;
/**
 * A result's error codes that are the engine's refusals (api.md, Tasks): the photo shows no specimen to score.
 * A refusal is an outcome, not a failure: a task whose photos were all refused ends `completed`.
 */
export const REFUSAL_CODES = ['not_a_specimen_photo', 'no_specimen_found'] as const;

/**
 * Header CassavaScope's server sends with every /api answer (value `1`): its bodies follow this package's
 * schemas exactly, so the web app checks them against the schemas. Another backend (the academy's original one,
 * read through the normalisers' alternative field names) sends none, and its answers are read as they come.
 */
export const CONTRACT_HEADER = 'X-CassavaScope-Contract';
export const CONTRACT_VERSION = '1';
