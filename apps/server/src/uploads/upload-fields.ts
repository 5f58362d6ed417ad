import { z } from 'zod';
import { parseInput } from '../http/validation.js';
import { isPlainName, NAME_PROBLEM } from '../names/names.js';
import type { UploadOptions } from './upload.service.js';

export const uploadFieldsSchema = z.object({
  folder_id: z
    .union([
      z.enum(['', 'none', 'null']).transform(() => null),
      z
        .string()
        .regex(/^\d{1,15}$/, 'must be a folder id')
        .transform(Number)
        .refine((n) => n >= 1, 'must be a folder id'),
    ])
    .optional(),
  check_duplicate: z.enum(['1', '0', 'true', 'false'], { message: "must be '1' or '0'" }).optional(),
  duplicate_action: z
    .enum(['', 'skip', 'overwrite', 'keep_both'], { message: 'must be skip, overwrite or keep_both' })
    .optional(),
  name: z.string().max(1000, 'must be at most 1000 characters').refine(isPlainName, NAME_PROBLEM).optional(),
});

/** The text fields of an upload request (multipart values are strings). */
export function parseUploadFields(fields: Record<string, string>): UploadOptions & { name: string | undefined } {
  const f = parseInput(
    uploadFieldsSchema,
    {
      folder_id: fields.folder_id,
      check_duplicate: fields.check_duplicate,
      duplicate_action: fields.duplicate_action,
      name: fields.name,
    },
    'upload',
  );
  return {
    folderId: f.folder_id ?? null,
    checkDuplicate: f.check_duplicate === undefined || f.check_duplicate === '1' || f.check_duplicate === 'true',
    action: f.duplicate_action === '' ? undefined : f.duplicate_action,
    name: f.name,
  };
}
