import type { PredictionResult, VisKey } from '@cassavascope/contract';
import type { Selectable } from 'kysely';
import type { ResultsTable } from '../db/schema.js';
import type { BlobStorage } from '../storage/blob-storage.js';

export type ResultRowWithImage = Selectable<ResultsTable> & { blob_key: string | null };

/** A result row as the API's Result object; stored keys become URLs through the storage. */
export function toResult(row: ResultRowWithImage, storage: BlobStorage): PredictionResult {
  const vis = JSON.parse(row.vis_keys) as Partial<Record<VisKey, string>>;
  const visImages: Partial<Record<VisKey, string>> = {};
  for (const [k, key] of Object.entries(vis)) visImages[k as VisKey] = storage.url(key);
  return {
    id: row.id,
    task_id: row.task_id,
    image_id: row.image_id,
    imageName: row.image_name,
    original_image_url: row.blob_key ? storage.url(row.blob_key) : null,
    oss_key: row.oss_key,
    result_image_url: row.oss_key ? storage.url(row.oss_key) : null,
    ppd_value: row.ppd_value,
    sub_ppd_values: JSON.parse(row.sub_ppd_values) as number[],
    prediction: row.prediction as PredictionResult['prediction'],
    confidence: row.confidence,
    vis_images: visImages,
    error_code: row.error_code,
    error_message: row.error_message,
    processing_time: row.processing_time,
    created_time: row.created_at,
  };
}
