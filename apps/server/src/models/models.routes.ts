import { modelListSchema, modelSchema } from '@cassavascope/contract';
import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { named } from '../http/validation.js';
import { errorResponse, idParams, multipartBody, noBody, otherContent } from '../openapi/route-doc.js';
import { receiveMultipart } from '../http/multipart-intake.js';
import { discard } from '../http/staged-file.js';
import { modelCreateSchema, modelRenameSchema } from './model-payload.schema.js';
import { ModelsService } from './models.service.js';

/** A model file is a few MB at most (issue 23: under 5 MB); anything far larger is not one. */
const MODEL_FILE_BYTES_MAX = 64 * 1024 * 1024;

/**
 * The `file` part of a multipart request, read into memory (bounded), and its file name; other parts are ignored.
 * Received through the uploads' intake, which refuses a malformed part header at once (issue 26, item 2).
 */
async function receiveModelFile(
  req: FastifyRequest,
  tempDir: string,
): Promise<{ bytes: Buffer; fileName: string | undefined }> {
  const { files } = await receiveMultipart(req, tempDir, 1, undefined, {
    hash: false,
    maxFileBytes: MODEL_FILE_BYTES_MAX,
  });
  try {
    const file = files.find((f) => f.field === 'file');
    if (!file || file.staged.size === 0)
      throw new ApiError(400, 'invalid_model', 'No model file was sent (multipart field "file")', {
        fields: { file: 'This field is required' },
      });
    return { bytes: await fsp.readFile(file.staged.path), fileName: file.filename || undefined };
  } finally {
    await discard(files.map((f) => f.staged));
  }
}

/** `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266), for names in any script. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const createBody = named('model', modelCreateSchema);
const renameBody = named('model', modelRenameSchema);

/** The Lab models calls of api.md ("Labels and lab models"). */
export async function modelsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const models = new ModelsService(ctx);

  const createSchema = {
    summary: 'Train a lab model from labelled photos (in the background)',
    description:
      'Answers at once with the model `training`; follow it with GET /api/models/{id}/. Trains on the labelled images among image_ids and folder_ids (neither: every labelled image).',
    body: createBody,
    response: {
      202: modelSchema,
      400: errorResponse(
        '`invalid` (with `fields`), `unknown_ids` (with `ids`) or `not_enough_labels` (fewer than 2 labelled photos, or no healthy or no lesion pixels; with `labelled_images`, `labelled_pixels`)',
      ),
    },
  };
  app.post('/models/', { schema: createSchema }, async (req, reply) => {
    const model = await models.create({ ...req.body, createdBy: req.user?.id ?? null });
    return reply.status(202).send(model);
  });

  app.get(
    '/models/',
    {
      schema: {
        summary: 'List lab models, newest first',
        querystring: pagingQuerySchema,
        response: { 200: modelListSchema },
      },
    },
    async (req) => {
      const paging = parsePaging(req.query);
      const { count, results } = await models.list(paging.pageSize, paging.offset);
      return listEnvelope(req, paging, count, results);
    },
  );

  app.get(
    '/models/:id/',
    { schema: { summary: 'One lab model', params: idParams, response: { 200: modelSchema } } },
    async (req) => models.get(req.params.id),
  );

  app.patch(
    '/models/:id/',
    { schema: { summary: 'Rename a lab model', params: idParams, body: renameBody, response: { 200: modelSchema } } },
    async (req) => models.rename(req.params.id, req.body.name),
  );

  const cancelSchema = {
    summary: 'Stop a training',
    params: idParams,
    response: { 200: modelSchema, 409: errorResponse("`not_running` (with the model's `status`)") },
  };
  app.post('/models/:id/cancel/', { schema: cancelSchema }, async (req) => models.cancel(req.params.id));

  const deleteSchema = {
    summary: 'Delete a lab model (a training one is stopped); results keep its name',
    params: idParams,
    response: { 204: noBody, 409: errorResponse('`model_in_use` (with `task_ids`): a running task scores with it') },
  };
  app.delete('/models/:id/', { schema: deleteSchema }, async (req, reply) => {
    await models.delete(req.params.id);
    return reply.status(204).send();
  });

  const fileSchema = {
    summary: 'Download the portable model file (docs/model.md, "Lab model files")',
    params: idParams,
    response: {
      200: otherContent('application/octet-stream', 'the model file, as an attachment'),
      409: errorResponse("`not_ready` (with the model's `status`): only a ready model has a file"),
    },
  };
  app.get('/models/:id/file/', { schema: fileSchema }, async (req, reply) => {
    {
      const file = await models.file(req.params.id);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', attachment(file.fileName))
        .send(file.stream);
    }
  });

  app.post(
    '/models/import/',
    {
      schema: {
        summary: 'Import a lab model file (from GET /api/models/{id}/file/ of this or another server)',
        consumes: ['multipart/form-data'],
        body: multipartBody(z.object({}), { file: { many: false, description: 'the model file' } }),
        response: {
          201: modelSchema,
          400: errorResponse(
            '`invalid_model`: no file, or a file that is not a lab model; `invalid_multipart` (a malformed part header)',
          ),
          413: errorResponse('`too_large`'),
          415: errorResponse('`unsupported_media_type`: not multipart/form-data'),
        },
      },
    },
    async (req, reply) => {
      const { bytes, fileName } = await receiveModelFile(req, ctx.storage.tempDir);
      const model = await models.import(bytes, fileName, req.user?.id ?? null);
      return reply.status(201).send(model);
    },
  );
}
