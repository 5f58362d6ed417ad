import {
  modelMetricsSchema,
  type LabelledPixels,
  type Model,
  type ModelMetrics,
  type ModelStatus,
} from '@cassavascope/contract';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { ModelRow, StoredHeldout } from './models.repository.js';

const ZERO: LabelledPixels = { background: 0, healthy: 0, lesion: 0, excluded: 0 };

/** A model row as the API's Model object; `creators` names the users who trained them. */
export function toModel(row: ModelRow, storage: BlobStorage, creators: ReadonlyMap<number, string> = new Map()): Model {
  const heldout = JSON.parse(row.heldout) as StoredHeldout[];
  return {
    id: row.id,
    name: row.name,
    status: row.status as ModelStatus,
    progress: Math.max(0, Math.min(100, Number(row.progress))),
    created_time: row.created_at,
    created_by:
      row.created_by === null
        ? null
        : { id: row.created_by, ...(creators.has(row.created_by) ? { username: creators.get(row.created_by)! } : {}) },
    image_count: row.image_count,
    labelled_pixels: { ...ZERO, ...(JSON.parse(row.labelled_pixels) as Partial<LabelledPixels>) },
    metrics: metricsOf(row.metrics),
    error_message: row.error_message,
    heldout: heldout.map((h) => ({
      image_id: h.image_id,
      labels_ppd: h.labels_ppd,
      model_ppd: h.model_ppd,
      baseline_ppd: h.baseline_ppd,
      model_overlay_url: h.model_overlay_key ? storage.url(h.model_overlay_key) : null,
      baseline_overlay_url: h.baseline_overlay_key ? storage.url(h.baseline_overlay_key) : null,
    })),
    file_size: row.status === 'ready' ? row.file_size : null,
  };
}

/** Stored metrics as the API gives them; anything else (an imported file's odd metrics) is none. */
function metricsOf(text: string | null): ModelMetrics | null {
  if (!text) return null;
  const parsed = modelMetricsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}
