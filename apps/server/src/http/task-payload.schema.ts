import { predictionParametersSchema, TASK_NAME_MAX } from '@cassavascope/contract';
import { z } from 'zod';
import { isPlainName, PLAIN_NAME_MESSAGE } from './validation.js';
import { nfc } from '../names/names.js';

/** The task types of api.md and the engine mode each runs. */
export const TASK_TYPES = ['prediction', 'first_segmentation', 'second_segmentation'] as const;
export type TaskTypeName = (typeof TASK_TYPES)[number];

export const taskNameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must not be blank')
  .max(TASK_NAME_MAX, `name must be at most ${TASK_NAME_MAX} characters`)
  .refine(isPlainName, `name ${PLAIN_NAME_MESSAGE}`)
  .transform(nfc);

/** What the photos show, and the lab model to score with (api.md POST /tasks/prediction/). */
const engineChoice = {
  specimen_kind: z
    .enum(['auto', 'root_slice', 'leaf'])
    .optional()
    .meta({ description: 'what the photos show (default auto: the engine decides per specimen)' }),
  model_id: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .nullish()
    .meta({ description: 'a ready lab model of GET /api/models/; absent or null: the default engine' }),
};

const idList = z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(1_000_000).nullish();

/**
 * The creation payload the seed lists (section 7): name, type, algorithm, the slider parameters
 * (ranges and defaults from the shared contract), image_ids and/or folder_ids, single_model_type.
 * Unknown keys (the client spreads its other parameters in) are ignored.
 */
export const taskCreateSchema = predictionParametersSchema.extend({
  name: taskNameSchema,
  type: z.enum(TASK_TYPES).optional(),
  algorithm: z.string().trim().min(1).max(100).nullish(),
  single_model_type: z.string().max(100).nullish(),
  image_ids: idList,
  folder_ids: idList,
  ...engineChoice,
});
export type TaskCreateInput = z.infer<typeof taskCreateSchema>;

/** predict_batch: the same, with an optional name (a dated default is given). */
export const batchCreateSchema = taskCreateSchema.extend({ name: taskNameSchema.optional() });

/** predict_single: one image and the parameters. */
export const singlePredictSchema = predictionParametersSchema.extend({
  image_id: z.number({ error: 'image_id is required' }).int().positive().max(Number.MAX_SAFE_INTEGER),
  name: taskNameSchema.optional(),
  algorithm: z.string().trim().min(1).max(100).nullish(),
  ...engineChoice,
});

export const taskRenameSchema = z.object({ name: taskNameSchema });

export const taskListQuerySchema = z.object({
  status: z.enum(['running', 'completed', 'failed', 'cancelled']).optional(),
  search: z.string().max(200).transform(nfc).optional(),
});
