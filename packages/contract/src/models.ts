import { z } from 'zod';
import { listEnvelopeSchema, type ListEnvelope } from './objects.js';

/**
 * Lab models (api.md "Labels and lab models"): a model a lab trains from its own labelled photos, and what a task
 * is told beside its parameters (`specimen_kind`, `model_id`).
 */

/** What the photos of a task show; `auto` lets the engine decide per specimen. */
export type TaskSpecimenKind = 'auto' | 'root_slice' | 'leaf';
export const TASK_SPECIMEN_KINDS: readonly TaskSpecimenKind[] = ['auto', 'root_slice', 'leaf'];

export type ModelStatus = 'training' | 'ready' | 'failed' | 'cancelled';
export const MODEL_STATUSES: readonly ModelStatus[] = ['training', 'ready', 'failed', 'cancelled'];

/** Longest model name, after trim (as a task's). */
export const MODEL_NAME_MAX = 50;

const time = z
  .string()
  .meta({ description: 'ISO 8601 time in UTC, ending in Z', examples: ['2026-11-21T10:02:00.000Z'] });
const count = z.number().int().min(0);
const share = z.number().min(0).max(1);
const ppd = z.number().min(0).max(10);
const url = z
  .string()
  .meta({ description: 'relative to the server (/media/...), or an absolute http(s) URL of object storage' });

export const labelledPixelsSchema = z.object({ background: count, healthy: count, lesion: count, excluded: count });
export type LabelledPixels = z.infer<typeof labelledPixelsSchema>;

export const modelMetricsSchema = z
  .object({
    pixel_accuracy: share,
    lesion_iou: share,
    ppd_mae: z.number().min(0).meta({ description: "the lab model's mean absolute PPD error against the labels" }),
    baseline_ppd_mae: z.number().min(0).meta({ description: "the default engine's on the same specimens" }),
  })
  .meta({ description: 'measured on labelled photos the model did not train on (docs/model.md)' });
export type ModelMetrics = z.infer<typeof modelMetricsSchema>;

/** One labelled photo the model did not train on: the before/after of the Models screen (an addition). */
export const heldoutPhotoSchema = z.object({
  image_id: z
    .number()
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'the labelled image (it may have been deleted since)' }),
  labels_ppd: ppd,
  model_ppd: ppd,
  baseline_ppd: ppd,
  model_overlay_url: url.nullable(),
  baseline_overlay_url: url.nullable(),
});
export type HeldoutPhoto = z.infer<typeof heldoutPhotoSchema>;

export const modelSchema = z.object({
  id: z.number().int().min(1),
  name: z.string(),
  status: z.enum(['training', 'ready', 'failed', 'cancelled']),
  progress: z.number().min(0).max(100),
  created_time: time,
  created_by: z
    .object({ id: z.number().int().min(1), username: z.string().optional() })
    .nullable()
    .meta({ description: 'who trained or imported it (sign-in on); null when sign-in was off' }),
  image_count: count,
  labelled_pixels: labelledPixelsSchema,
  metrics: modelMetricsSchema.nullable(),
  error_message: z.string().nullable(),
  heldout: z.array(heldoutPhotoSchema).meta({ description: 'the held-out photos, with both overlays (an addition)' }),
  file_size: count.nullable().meta({ description: 'bytes of the portable model file; null until ready (an addition)' }),
});
export type Model = z.infer<typeof modelSchema>;

export const modelListSchema = listEnvelopeSchema(modelSchema);
export type ModelList = ListEnvelope<Model>;

/** The model a result was scored with. */
export const resultModelSchema = z
  .object({ id: z.number().int().min(1), name: z.string() })
  .meta({ description: 'the lab model the task scored with (its name kept after the model is deleted)' });
export type ResultModel = z.infer<typeof resultModelSchema>;

/** A task's engine label when it scores with a lab model (the Task's `engine_label`). */
export const labModelLabel = (name: string) => `Lab model: ${name}`;
