import type { PredictionResult, VisKey } from '@cassavascope/contract';
import type { Selectable } from 'kysely';
import type { ResultsTable } from '../db/schema.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { parseStoredSpecimens, specimenVisKeys, toApiSpecimen } from './stored-specimens.js';

export type ResultRowWithImage = Selectable<ResultsTable> & { blob_key: string | null; thumb_key?: string | null };

/** The lab model of each task (TasksRepository.modelsOf): a result's `model`. */
export type TaskModels = ReadonlyMap<number, { id: number; name: string }>;

/** A result row as the API's Result object; stored keys become URLs through the storage. */
export function toResult(
  row: ResultRowWithImage,
  storage: BlobStorage,
  models: TaskModels = new Map(),
): PredictionResult {
  const specimens = parseStoredSpecimens(row.specimens);
  const vis = JSON.parse(row.vis_keys) as Partial<Record<VisKey, string>>;
  // cut2_i / pred_i for every specimen i: the stored keys, and any specimen's own images not among them.
  for (const [k, key] of specimenVisKeys(specimens)) vis[k] ??= key;
  const visImages: Partial<Record<VisKey, string>> = {};
  for (const [k, key] of Object.entries(vis)) if (key) visImages[k as VisKey] = storage.url(key);
  return {
    id: row.id,
    task_id: row.task_id,
    image_id: row.image_id,
    imageName: row.image_name,
    original_image_url: row.blob_key ? storage.url(row.blob_key) : null,
    thumbnail_url: row.thumb_key ? storage.url(row.thumb_key) : null,
    oss_key: row.oss_key,
    result_image_url: row.oss_key ? storage.url(row.oss_key) : null,
    ppd_value: row.ppd_value,
    sub_ppd_values: JSON.parse(row.sub_ppd_values) as number[],
    prediction: row.prediction as PredictionResult['prediction'],
    confidence: row.confidence,
    vis_images: visImages,
    specimens: specimens.map((s) => toApiSpecimen(s, storage)),
    needs_review: Boolean(row.needs_review),
    reviewed: Boolean(row.reviewed),
    engine_ppd_value: row.engine_ppd_value ?? null,
    error_code: row.error_code,
    error_message: row.error_message,
    processing_time: row.processing_time,
    created_time: row.created_at,
    model: models.get(row.task_id) ?? null,
  };
}
