import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  METADATA_FIELD_PATTERN,
  metadataParseRequestSchema,
  metadataParseResponseSchema,
  metadataSheetFieldsSchema,
  metadataSheetResponseSchema,
} from '@cassavascope/contract';
import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { named, parseInput } from '../http/validation.js';
import { errorResponse, multipartBody } from '../openapi/route-doc.js';
import { MetadataService } from './metadata.service.js';
import { readSheet } from './sheet-reader.js';
import { receiveMultipart } from '../http/multipart-intake.js';
import { discard } from '../http/staged-file.js';

/** A field book of 100 000 rows is a few MB; anything far larger is not a sheet. */
const SHEET_BYTES_MAX = 20 * 1024 * 1024;

const parseBody = named(
  'pattern request',
  metadataParseRequestSchema.refine((b) => b.image_ids !== undefined || b.folder_id !== undefined, {
    message: 'give image_ids or folder_id',
    path: ['image_ids'],
  }),
);

const valuesQuery = z.object({ field: z.string().regex(METADATA_FIELD_PATTERN, 'must be a field name') });

/**
 * The sheet file and the text fields of a multipart request (one file, read into memory: it is small). Received
 * through the uploads' intake, which refuses a malformed part header (a CR or LF in a file name) at once: read
 * with the parser alone, such a part over ~16 KB was never answered (issue 26, item 2).
 */
async function receiveSheet(
  req: FastifyRequest,
  tempDir: string,
): Promise<{ bytes: Buffer; fields: Record<string, string> }> {
  const { files, fields } = await receiveMultipart(req, tempDir, 1, undefined, {
    hash: false,
    maxFileBytes: SHEET_BYTES_MAX,
  });
  try {
    const file = files.find((f) => f.field === 'file');
    if (!file || file.staged.size === 0)
      throw badRequest('No sheet was sent (multipart field "file")', { file: 'This field is required' });
    return { bytes: await fsp.readFile(file.staged.path), fields };
  } finally {
    await discard(files.map((f) => f.staged));
  }
}

/** The Sample metadata calls of api.md (PATCH /images/{id}/ is with the images routes). */
export async function metadataRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new MetadataService(ctx);

  const parseSchema = {
    summary:
      'Read sample fields from image names with a pattern such as {genotype}_{rep}_{dah}d_{root} (apply: store them)',
    body: parseBody,
    response: {
      200: metadataParseResponseSchema,
      400: errorResponse(
        '`invalid` (fields.pattern: a bad pattern, or with apply a value that does not fit its field) or `unknown_ids`',
      ),
    },
  };
  app.post('/images/metadata/parse/', { schema: parseSchema }, async (req) => {
    const body = req.body;
    return service.parse(body.pattern, { imageIds: body.image_ids, folderId: body.folder_id }, body.apply ?? false);
  });

  const sheetSchema = {
    summary:
      'Set sample fields from a CSV or XLSX sheet (a name column, then one column per field), with a report per row',
    consumes: ['multipart/form-data'],
    body: multipartBody(metadataSheetFieldsSchema, {
      file: { many: false, description: 'the sheet: CSV (UTF-8) or XLSX' },
    }),
    response: {
      200: metadataSheetResponseSchema,
      400: errorResponse(
        '`invalid` (no name column, bad column names, empty sheet, malformed image_ids, image_ids with folder_id) or `unknown_ids` (folder_id, image_ids)',
      ),
      413: errorResponse('`too_large`'),
      415: errorResponse('`unsupported_file_type`: not CSV or XLSX'),
    },
  };
  app.post('/images/metadata/sheet/', { schema: sheetSchema }, async (req) => {
    const { bytes, fields } = await receiveSheet(req, ctx.storage.tempDir);
    // An empty text field is an absent one (a form that always sends every field).
    const given = (name: string) => fields[name] || undefined;
    const f = parseInput(
      metadataSheetFieldsSchema,
      {
        folder_id: given('folder_id'),
        image_ids: given('image_ids'),
        partial: given('partial'),
        dry_run: given('dry_run'),
      },
      'sheet request',
    );
    const sheet = await readSheet(bytes);
    const yes = (flag: string | undefined) => flag === '1' || flag === 'true';
    return service.importSheet(
      sheet,
      { imageIds: f.image_ids, folderId: f.folder_id === undefined ? undefined : Number(f.folder_id) },
      { partial: yes(f.partial), dryRun: yes(f.dry_run) },
    );
  });

  // Additions (docs/api.md): the fields in use and one field's values, for the screens' filter and group menus.
  const fieldsSchema = {
    summary: 'Sample field names in use, with how many images carry each, most used first',
    response: { 200: z.array(z.object({ field: z.string(), count: z.number().int() })) },
  };
  app.get('/images/metadata/fields/', { schema: fieldsSchema }, () => service.fieldNames());
  const valuesSchema = {
    summary: "One field's distinct values with their image counts (at most 500)",
    querystring: valuesQuery,
    response: { 200: z.array(z.object({ value: z.union([z.number(), z.string()]), count: z.number().int() })) },
  };
  app.get('/images/metadata/values/', { schema: valuesSchema }, (req) => service.values(req.query.field, 500));
}
