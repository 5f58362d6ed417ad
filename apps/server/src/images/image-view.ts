import type { Image, ImageMetadata } from '@cassavascope/contract';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { ImageRow } from './images.repository.js';

/** An image's newest reviewed result (`ResultsRepository.newestReviewedOf`), as the Image object's `reviewed_result` reads. */
export interface ReviewedResult {
  id: number;
  taskId: number;
  ppdValue: number;
  prediction: string | null;
}

/**
 * An image row as the API shows it (api.md "Image object"), with its sample fields ({} when none); `reviewed`:
 * its newest reviewed result (null: none; undefined: not looked up, the field is left out).
 */
export function toImage(
  row: ImageRow,
  storage: BlobStorage,
  metadata: ImageMetadata = {},
  hasLabels?: boolean,
  reviewed?: ReviewedResult | null,
): Image {
  return {
    id: row.id,
    name: row.name,
    image_url: storage.url(row.blob_key),
    thumbnail_url: storage.url(row.thumb_key),
    folderId: row.folder_id,
    size: Number(row.size),
    format: row.format,
    width: row.width,
    height: row.height,
    sha256: row.sha256,
    created_time: row.created_at,
    uploadDate: row.created_at,
    hasPPD: row.ppd_value !== null,
    ppdValue: row.ppd_value,
    lastPrediction: row.last_prediction,
    metadata,
    ...(hasLabels === undefined ? {} : { has_labels: hasLabels }),
    ...(reviewed === undefined
      ? {}
      : {
          reviewed_result: reviewed && {
            id: reviewed.id,
            task_id: reviewed.taskId,
            ppd_value: reviewed.ppdValue,
            prediction: reviewed.prediction,
            latest: reviewed.id === row.last_result_id,
          },
        }),
  };
}
