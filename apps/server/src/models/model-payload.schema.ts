import { MODEL_NAME_MAX } from '@cassavascope/contract';
import { z } from 'zod';
import { isPlainName, PLAIN_NAME_MESSAGE } from '../http/validation.js';
import { nfc } from '../names/names.js';

export const modelNameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must not be blank')
  .max(MODEL_NAME_MAX, `name must be at most ${MODEL_NAME_MAX} characters`)
  .refine(isPlainName, `name ${PLAIN_NAME_MESSAGE}`)
  .transform(nfc);

const idList = z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(100_000).nullish();

/** `POST /models/`: the name and which labelled images to train on (default: every labelled image). */
export const modelCreateSchema = z.object({
  name: modelNameSchema,
  image_ids: idList.meta({ description: 'labelled images to train on (with folder_ids: the union)' }),
  folder_ids: idList.meta({ description: 'folders whose labelled images to train on; neither: every labelled image' }),
});

export const modelRenameSchema = z.object({ name: modelNameSchema });
