import { z } from 'zod';
import { userListSchema, userRowSchema, userSchema } from './auth.js';
import { folderSchema, imageSchema, listEnvelopeSchema } from './objects.js';
import { modelListSchema, modelSchema, resultModelSchema, type Model } from './models.js';
import { storageCheckSchema, storageCheckSummarySchema } from './storage-check.js';
import type {
  DiskStatus,
  Folder,
  Image,
  ImageList,
  ListEnvelope,
  PredictionResult,
  PredictionSummary,
  ReviewHistoryEntry,
  ServerStatus,
  Specimen,
  Task,
  UploadResponse,
} from './objects.js';

/**
 * zod schemas of every response body of the API (api.md), beside the TypeScript types of objects.ts. The server
 * builds its OpenAPI document from them (GET /api/openapi.json) and its tests validate real responses against
 * that document; the compile-time checks at the end keep each schema's output assignable to its type, so a
 * client that parses with a schema gets the type it already uses.
 */

const time = z
  .string()
  .meta({ description: 'ISO 8601 time in UTC, ending in Z', examples: ['2026-11-21T10:02:00.000Z'] });
const id = z.number().int().min(1);
const count = z.number().int().min(0);
const url = z
  .string()
  .meta({ description: 'relative to the server (/media/...), or an absolute http(s) URL of object storage' });
const severity = z.enum(['healthy', 'mild', 'severe']);

/** An error body: `{code, detail}`, plus `fields` when it is about fields, and other extras some codes carry. */
export const apiErrorSchema = z
  .object({
    code: z
      .string()
      .meta({ description: 'snake_case code, e.g. invalid, not_found, unknown_ids, duplicate, storage_full' }),
    detail: z.string().meta({ description: 'human readable English' }),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'each offending field (dotted path) and what is wrong with it' }),
    ids: z.array(z.number().int()).optional().meta({ description: 'unknown_ids: the ids that do not exist' }),
    duplicates: z.array(z.string()).optional().meta({ description: 'duplicate: the names as they were sent' }),
    upload_token: z
      .string()
      .optional()
      .meta({ description: 'duplicate with resumable=1: send it to POST /api/images/upload-resume/' }),
    task_id: id.optional().meta({ description: 'engine_unavailable / still_running: the one-image task' }),
  })
  .passthrough()
  .meta({
    description: 'Every 4xx/5xx answer. Some codes add more keys (e.g. status, index, matches); no stack trace ever.',
  });

export const imageListSchema = listEnvelopeSchema(imageSchema).extend({
  facets: z.object({ all: count, uncategorized: count }).meta({ description: 'counted over the whole library' }),
});
export const folderListSchema = listEnvelopeSchema(folderSchema);

export const imageDaySchema = z.object({ day: z.string().meta({ description: 'YYYY-MM-DD (UTC)' }), count });
export const imageTypeSchema = z.object({ format: z.string(), count });
export const imageGroupsSchema = z.object({
  count,
  groups: z.array(
    z.object({
      key: z.string(),
      count,
      start: count.meta({ description: "0-based position of the group's first image in the listing" }),
      value: z.union([z.number(), z.string()]).nullable().optional().meta({
        description: 'with group_by=FIELD: the typed value (key is its text); null for the images without it',
      }),
    }),
  ),
});

export const uploadResponseSchema = z.object({
  count: count.meta({ description: 'uploaded.length' }),
  uploaded: z.array(imageSchema),
  skipped: z.array(z.string()).meta({ description: 'names as sent' }),
  errors: z.array(z.object({ name: z.string(), code: z.string(), detail: z.string() })),
});

export const movedSchema = z.object({ moved: count });

export const taskParametersSchema = z.object({
  threshold: z.number(),
  min_size: z.number(),
  method: z.enum(['post', 'none']),
  use_tta: z.boolean(),
  morph_kernel_size: z.number(),
  morph_iterations: z.number(),
  overlay_opacity: z.number(),
  split_count: z.number(),
});

export const taskStatisticsSchema = z.object({
  healthyCount: count,
  diseaseCount: count,
  averageConfidence: z.number(),
  processingTime: z.number(),
  totalProcessed: count,
});

export const taskSchema = z.object({
  id,
  name: z.string(),
  type: z.enum(['prediction', 'first_segmentation', 'second_segmentation']),
  status: z.enum(['running', 'completed', 'failed', 'cancelled']).meta({ description: 'running includes queued' }),
  algorithm: z.string(),
  model_type: z.string(),
  engine_label: z
    .string()
    .nullable()
    .meta({ description: 'label of the engine that scored the task; null until a job has run' }),
  image_ids: z.array(id),
  image_count: count,
  progress: z.number().min(0).max(100),
  processed_count: count,
  failed_count: count,
  refused_count: count.meta({
    description:
      'how many of failed_count the engine refused (not_a_specimen_photo, no_specimen_found): outcomes, not failures',
  }),
  created_time: time,
  updated_time: time,
  completed_time: time.nullable(),
  parameters: taskParametersSchema,
  statistics: taskStatisticsSchema.nullable(),
  error_message: z.string().nullable(),
  created_by: z.object({ id, username: z.string().optional() }).nullable().optional().meta({
    description: 'who started it (sign-in on; only the id once the account is deleted); null when sign-in was off',
  }),
  specimen_kind: z
    .enum(['auto', 'root_slice', 'leaf'])
    .meta({ description: 'what the photos show; auto lets the engine decide per specimen' }),
  model_id: z
    .number()
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'the lab model it scores with (GET /api/models/); null: the default engine' }),
});

export const taskListSchema = listEnvelopeSchema(taskSchema).extend({
  status_counts: z
    .object({ running: count, completed: count, failed: count, cancelled: count })
    .meta({ description: 'over every task, whatever the filter' }),
});

export const specimenSchema = z.object({
  index: id,
  kind: z.enum(['root_slice', 'leaf']),
  box: z
    .tuple([z.number(), z.number(), z.number(), z.number()])
    .nullable()
    .meta({ description: '[x, y, w, h] in original-image pixels after EXIF orientation' }),
  ppd: z.number().nullable(),
  engine_ppd: z.number().nullable(),
  confidence: z.number().nullable(),
  needs_review: z.boolean(),
  excluded: z.boolean(),
  corrected: z.boolean(),
  source: z.enum(['engine', 'reviewer']),
  cut_url: url.nullable(),
  pred_url: url.nullable(),
});

export const resultSchema = z.object({
  id,
  task_id: id,
  image_id: id.nullable(),
  imageName: z.string(),
  original_image_url: url.nullable(),
  thumbnail_url: url.nullable().optional(),
  oss_key: z.string().nullable(),
  result_image_url: url.nullable(),
  ppd_value: z.number().nullable(),
  sub_ppd_values: z.array(z.number()),
  prediction: severity.nullable(),
  confidence: z.number().nullable(),
  vis_images: z
    .record(z.string().regex(/^(cut2|pred)_[1-9]\d*$/), url)
    .meta({ description: 'cut2_<i> and pred_<i> for every specimen i' }) as unknown as z.ZodType<
    PredictionResult['vis_images']
  >,
  specimens: z.array(specimenSchema),
  needs_review: z.boolean(),
  reviewed: z.boolean(),
  engine_ppd_value: z.number().nullable(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  processing_time: z.number().nullable(),
  created_time: time,
  model: resultModelSchema
    .nullable()
    .meta({ description: 'the lab model its task scored with; null: the default engine' }),
});

export const resultListSchema = listEnvelopeSchema(resultSchema);

export const predictionSummarySchema = z.object({
  count,
  average: z.number().nullable(),
  max: z.number().nullable(),
  min: z.number().nullable(),
  bands: z.object({ healthy: count, mild: count, severe: count }),
  histogram: z.object({ '0-4': count, '4-7': count, '7-8': count, '8-10': count, '>=10': count }),
});

export const reviewHistoryEntrySchema = z.object({
  time,
  index: id,
  change: z.enum(['excluded', 'included', 'ppd', 'added', 'reset']),
  from: z.union([z.number(), z.boolean(), z.null()]),
  to: z.union([z.number(), z.boolean(), z.null()]),
  note: z.string().nullable(),
  user: z.object({ id, username: z.string().optional() }).nullable(),
});

/** `GET /predictions/{id}/history/`: every review change of a result, oldest first. */
export const reviewHistorySchema = z.array(reviewHistoryEntrySchema);

export const diskStatusSchema = z.object({ free_bytes: count, total_bytes: count, low: z.boolean() });

export const serverStatusSchema = z.object({
  status: z.literal('online'),
  version: z.string(),
  uptime_seconds: count,
  server_time: time,
  image_count: count,
  task_count: count,
  engine: z.object({ name: z.string(), label: z.string(), kind: z.enum(['colour', 'onnx']) }),
  database: z.enum(['sqlite', 'postgres']),
  storage: z.enum(['local', 's3']),
  queue: z.enum(['embedded', 'pg-boss']),
  endpoints: z.array(z.object({ path: z.string(), ok: z.boolean() })),
  disk: diskStatusSchema.nullable().optional(),
  storage_check: storageCheckSummarySchema.nullable().optional(),
});

/** The named objects of the API, as the OpenAPI document's components name them. */
export const API_OBJECT_SCHEMAS = {
  Error: apiErrorSchema,
  Image: imageSchema,
  ImageList: imageListSchema,
  UploadResponse: uploadResponseSchema,
  Folder: folderSchema,
  FolderList: folderListSchema,
  Task: taskSchema,
  TaskList: taskListSchema,
  Specimen: specimenSchema,
  Result: resultSchema,
  ResultList: resultListSchema,
  PredictionSummary: predictionSummarySchema,
  ReviewHistoryEntry: reviewHistoryEntrySchema,
  ServerStatus: serverStatusSchema,
  User: userSchema,
  UserRow: userRowSchema,
  UserList: userListSchema,
  Model: modelSchema,
  ModelList: modelListSchema,
  StorageCheck: storageCheckSchema,
} as const;

// Compile-time: what a schema accepts is a value of the type the clients use.
type Assignable<From, To> = [From] extends [To] ? true : false;
const typeChecks: [
  Assignable<z.output<typeof imageSchema>, Image>,
  Assignable<z.output<typeof imageListSchema>, ImageList>,
  Assignable<z.output<typeof folderSchema>, Folder>,
  Assignable<z.output<typeof folderListSchema>, ListEnvelope<Folder>>,
  Assignable<z.output<typeof uploadResponseSchema>, UploadResponse>,
  Assignable<z.output<typeof taskSchema>, Task>,
  Assignable<z.output<typeof specimenSchema>, Specimen>,
  Assignable<z.output<typeof resultSchema>, PredictionResult>,
  Assignable<z.output<typeof predictionSummarySchema>, PredictionSummary>,
  Assignable<z.output<typeof reviewHistoryEntrySchema>, ReviewHistoryEntry>,
  Assignable<z.output<typeof diskStatusSchema>, DiskStatus>,
  Assignable<z.output<typeof serverStatusSchema>, ServerStatus>,
  Assignable<z.output<typeof modelSchema>, Model>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
void typeChecks;
