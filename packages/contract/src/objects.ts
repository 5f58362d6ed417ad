import { z } from 'zod';
import { imageMetadataSchema } from './metadata.js';
import type { StorageCheckSummary } from './storage-check.js';

/** API objects exactly as api.md describes them. */

export const errorBodySchema = z
  .object({ code: z.string(), detail: z.string(), fields: z.record(z.string(), z.string()).optional() })
  .passthrough();
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) });
export interface ListEnvelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const imageSchema = z.object({
  id: z.number(),
  name: z.string(),
  image_url: z.string(),
  thumbnail_url: z.string(),
  folderId: z.number().nullable(),
  size: z.number(),
  format: z.string(),
  width: z.number(),
  height: z.number(),
  sha256: z.string(),
  created_time: z.string(),
  uploadDate: z.string(),
  hasPPD: z.boolean(),
  ppdValue: z.number().nullable(),
  lastPrediction: z.string().nullable(),
  metadata: imageMetadataSchema,
  /** whether the image has labels (api.md "Labels and lab models"; an addition, absent from other backends) */
  has_labels: z.boolean().optional(),
  /**
   * the image's newest reviewed result with a PPD, or null (an addition, issue 25; absent from other backends):
   * `ppdValue` is the newest result's, and a later run nobody reviewed would otherwise hide the reviewed value.
   * `latest`: it is the newest result itself (ppdValue is then its reviewed value).
   */
  reviewed_result: z
    .object({
      id: z.number(),
      task_id: z.number(),
      ppd_value: z.number(),
      prediction: z.string().nullable(),
      latest: z.boolean(),
    })
    .nullable()
    .optional(),
});
export type Image = z.infer<typeof imageSchema>;

export interface ImageList extends ListEnvelope<Image> {
  facets: { all: number; uncategorized: number };
}

export const folderSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  imageCount: z.number(),
  createdDate: z.string(),
});
export type Folder = z.infer<typeof folderSchema>;

export interface UploadError {
  name: string;
  code: string;
  detail: string;
}
export interface UploadResponse {
  count: number;
  uploaded: Image[];
  skipped: string[];
  errors: UploadError[];
}

export type TaskStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export const TASK_STATUSES: readonly TaskStatus[] = ['running', 'completed', 'failed', 'cancelled'];
export type TaskType = 'prediction' | 'first_segmentation' | 'second_segmentation';

export interface TaskStatistics {
  healthyCount: number;
  diseaseCount: number;
  averageConfidence: number;
  processingTime: number;
  totalProcessed: number;
}

export interface Task {
  id: number;
  name: string;
  type: TaskType;
  status: TaskStatus;
  algorithm: string;
  model_type: string;
  /** label of the engine that scored the task; null until a job has run */
  engine_label: string | null;
  image_ids: number[];
  image_count: number;
  progress: number;
  processed_count: number;
  failed_count: number;
  /** how many of the failed_count were refusals (not_a_specimen_photo, no_specimen_found): outcomes, not failures */
  refused_count: number;
  created_time: string;
  updated_time: string;
  completed_time: string | null;
  parameters: {
    threshold: number;
    min_size: number;
    method: 'post' | 'none';
    use_tta: boolean;
    morph_kernel_size: number;
    morph_iterations: number;
    overlay_opacity: number;
    split_count: number;
  };
  statistics: TaskStatistics | null;
  error_message: string | null;
  /** who started it (sign-in on); null when sign-in was off (an addition to api.md) */
  created_by?: { id: number; username?: string } | null;
  /** what the photos show (models.ts TaskSpecimenKind); `auto` lets the engine decide */
  specimen_kind: 'auto' | 'root_slice' | 'leaf';
  /** the lab model it scores with; null: the default engine */
  model_id: number | null;
}

/**
 * Keys of a result's `vis_images`: `cut2_<i>` (the crop of specimen i) and `pred_<i>` (that crop with its lesion
 * overlay), for every specimen i = 1..N. The seed reads keys 1-3; results with more specimens go on past 3.
 */
export type VisKey = `cut2_${number}` | `pred_${number}`;
/** The seed's six keys (specimens 1-3), in the order the seed lists them. */
export const VIS_KEYS: readonly VisKey[] = ['cut2_1', 'cut2_2', 'cut2_3', 'pred_1', 'pred_2', 'pred_3'];
/** `cut2_<index>` / `pred_<index>` of specimen `index` (1-based). */
export const cutKey = (index: number): VisKey => `cut2_${index}`;
export const predKey = (index: number): VisKey => `pred_${index}`;
/** The kind and 1-based specimen index of a vis key, or null when the text is not one. */
export function parseVisKey(key: string): { kind: 'cut2' | 'pred'; index: number } | null {
  const m = /^(cut2|pred)_([1-9]\d{0,5})$/.exec(key);
  return m ? { kind: m[1] as 'cut2' | 'pred', index: Number(m[2]) } : null;
}

/** What a specimen is: a cut root slice (flesh scored, peel excluded) or a detached leaf on a plain background. */
export type SpecimenKind = 'root_slice' | 'leaf';
export const SPECIMEN_KINDS: readonly SpecimenKind[] = ['root_slice', 'leaf'];
/** Who put a specimen on the result: the engine, or a reviewer who added one the engine missed. */
export type SpecimenSource = 'engine' | 'reviewer';

/** One specimen of a result, 1..N in reading order (rows top to bottom, then left to right). */
export interface Specimen {
  index: number;
  kind: SpecimenKind;
  /**
   * [x, y, w, h] in original-image pixels after EXIF orientation; null only on results stored before the
   * engine reported boxes (their specimens are rebuilt from sub_ppd_values and the stored cuts).
   */
  box: [number, number, number, number] | null;
  /** the value in use (a reviewer's, else the engine's); null when only cuts were made (first segmentation) */
  ppd: number | null;
  /** the engine's own value, kept whatever a reviewer changes */
  engine_ppd: number | null;
  /** 0-1; null when the engine gave none */
  confidence: number | null;
  needs_review: boolean;
  excluded: boolean;
  corrected: boolean;
  source: SpecimenSource;
  cut_url: string | null;
  pred_url: string | null;
}

export interface PredictionResult {
  id: number;
  task_id: number;
  image_id: number | null;
  imageName: string;
  original_image_url: string | null;
  /** the original photo's 400 px thumbnail (an addition: result cards show it); null when the image is gone */
  thumbnail_url?: string | null;
  oss_key: string | null;
  result_image_url: string | null;
  ppd_value: number | null;
  sub_ppd_values: number[];
  prediction: 'healthy' | 'mild' | 'severe' | null;
  confidence: number | null;
  vis_images: Partial<Record<VisKey, string>>;
  /** every specimen found, in index order; [] for a failed image */
  specimens: Specimen[];
  /** true when any specimen needs review */
  needs_review: boolean;
  /** true once a reviewer changed anything on this result */
  reviewed: boolean;
  /** the engine's own mean, kept whatever a reviewer changes */
  engine_ppd_value: number | null;
  error_code: string | null;
  error_message: string | null;
  processing_time: number | null;
  created_time: string;
  /** the lab model its task scored with (the name is kept after the model is deleted); null: the default engine */
  model: { id: number; name: string } | null;
}

export interface PredictionSummary {
  count: number;
  average: number | null;
  max: number | null;
  min: number | null;
  bands: { healthy: number; mild: number; severe: number };
  histogram: { '0-4': number; '4-7': number; '7-8': number; '8-10': number; '>=10': number };
}

export interface EngineInfo {
  name: string;
  label: string;
  kind: 'colour' | 'onnx';
}

export interface ServerStatus {
  status: 'online';
  version: string;
  uptime_seconds: number;
  server_time: string;
  image_count: number;
  task_count: number;
  engine: EngineInfo;
  database: 'sqlite' | 'postgres';
  storage: 'local' | 's3';
  queue: 'embedded' | 'pg-boss';
  endpoints: { path: string; ok: boolean }[];
  /** free space on the server's DATA_DIR file system (an addition, issue 13); null where it cannot tell */
  disk?: DiskStatus | null;
  /** the last storage check (an addition, issue 26); null where the server cannot tell */
  storage_check?: StorageCheckSummary | null;
}

/** `GET /status/` `disk`: bytes free and in all; `low` once below the server's DISK_LOW_MB (the screen warns). */
export interface DiskStatus {
  free_bytes: number;
  total_bytes: number;
  low: boolean;
}

/** What one review change did to one specimen (api.md, `GET /predictions/{id}/history/`). */
export type ReviewChange = 'excluded' | 'included' | 'ppd' | 'added' | 'reset';
export const REVIEW_CHANGES: readonly ReviewChange[] = ['excluded', 'included', 'ppd', 'added', 'reset'];

/** Who made a review change: null while sign-in is off (api.md); the signed-in user once it exists. */
export interface ReviewUser {
  id: number;
  username?: string;
}

/** One entry of a result's review history, oldest first. `from`/`to` are PPD values (or null) or, for excluded/included, booleans. */
export interface ReviewHistoryEntry {
  time: string;
  index: number;
  change: ReviewChange;
  from: number | boolean | null;
  to: number | boolean | null;
  note: string | null;
  user: ReviewUser | null;
}

/** `PATCH /predictions/{id}/specimens/{index}/` */
export interface SpecimenReviewInput {
  excluded?: boolean;
  /** a reviewer's PPD (0-10), or null to return to the engine's value */
  ppd?: number | null;
  note?: string;
}

/** `POST /predictions/{id}/specimens/` */
export interface AddSpecimenInput {
  box: [number, number, number, number];
  kind?: SpecimenKind;
  /** a reviewer's score; without it the engine scores what is inside the box */
  ppd?: number;
  note?: string;
}
