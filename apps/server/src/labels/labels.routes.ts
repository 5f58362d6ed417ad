import { imageLabelsSchema } from '@cassavascope/contract';
import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';

import { errorResponse, idParams, multipartBody, noBody, otherContent } from '../openapi/route-doc.js';
import { receiveMultipart } from '../http/multipart-intake.js';
import { discard } from '../http/staged-file.js';
import { invalidLabels, LabelsService } from './labels.service.js';

/** A label PNG of a 60 MP photo is a few MB (few distinct values compress well); far larger is not a label. */
const LABEL_BYTES_MAX = 64 * 1024 * 1024;

const png = otherContent(
  'image/png',
  'an 8-bit grey PNG at the photo’s size as shown: one label value a pixel (0 unlabelled, 1 background, 2 healthy, 3 discoloured, 4 not scored)',
  z.string().meta({ format: 'binary' }),
);

/**
 * The `file` part of a multipart request, read into memory (bounded); other parts are ignored. Received through
 * the uploads' intake, which refuses a malformed part header (a CR or LF in a file name) at once: read with the
 * parser alone, such a part over ~16 KB was never answered (issue 26, item 2).
 */
async function receiveLabelFile(req: FastifyRequest, tempDir: string): Promise<Buffer> {
  const { files } = await receiveMultipart(req, tempDir, 1, undefined, { hash: false, maxFileBytes: LABEL_BYTES_MAX });
  try {
    const file = files.find((f) => f.field === 'file');
    if (!file || file.staged.size === 0)
      throw invalidLabels('No label image was sent (multipart field "file")', { file: 'This field is required' });
    return await fsp.readFile(file.staged.path);
  } finally {
    await discard(files.map((f) => f.staged));
  }
}

/** `/images/{id}/labels/` and the engine's proposal (api.md "Labels and lab models"). */
export async function labelsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new LabelsService(ctx);

  const putSchema = {
    summary: "Store an image's labels (replaces them): a label PNG of any size, scaled to the photo as shown",
    tags: ['labels'],
    params: idParams,
    consumes: ['multipart/form-data'],
    body: multipartBody(z.object({}), {
      file: {
        many: false,
        description:
          'a PNG, 8-bit grey or palette (the index is the value) or RGB(A) (its red channel); values 0-4, something labelled',
      },
    }),
    response: {
      200: imageLabelsSchema,
      400: errorResponse(
        '`invalid_labels`: not a PNG, a value above 4, nothing labelled, no file (fields.file); `invalid_multipart`, `invalid_name`',
      ),
      413: errorResponse('`too_large`'),
      415: errorResponse('`unsupported_media_type`: not a multipart body'),
    },
  };
  app.put('/images/:id/labels/', { schema: putSchema }, async (req) => {
    const id = req.params.id;
    // An unknown image is a 404 before its body is read.
    await service.imageOrNotFound(id);
    const bytes = await receiveLabelFile(req, ctx.storage.tempDir);
    const user = req.user ? { id: req.user.id, username: req.user.username } : null;
    return service.put(id, bytes, user);
  });

  const getSchema = {
    summary: "The image's label PNG at the photo's size (404 when it has none)",
    tags: ['labels'],
    params: idParams,
    response: { 200: png },
  };
  app.get('/images/:id/labels/', { schema: getSchema }, async (req, reply) => {
    const { stream, size, row } = await service.open(req.params.id);
    return reply
      .header('Content-Type', 'image/png')
      .header('Content-Length', String(size))
      .header('Cache-Control', 'no-cache')
      .header('Last-Modified', new Date(row.updated_at).toUTCString())
      .send(stream);
  });

  const deleteSchema = {
    summary: "Remove an image's labels (404 when it has none)",
    tags: ['labels'],
    params: idParams,
    response: { 204: noBody },
  };
  app.delete('/images/:id/labels/', { schema: deleteSchema }, async (req, reply) => {
    await service.delete(req.params.id, auditInDeletion(req));
    return reply.status(204).send();
  });

  const proposalSchema = {
    summary:
      "The default engine's per-pixel classes of the photo as a label PNG at the photo's size (what the painter offers to accept)",
    tags: ['labels'],
    params: idParams,
    response: {
      200: png,
      409: errorResponse("`image_unreadable`: the photo's stored file is missing"),
      422: errorResponse('`no_proposal`: the engine could not read the photo (`engine_error_code`)'),
      503: errorResponse('`engine_unavailable`'),
    },
  };
  app.get('/images/:id/labels/proposal/', { schema: proposalSchema }, async (req, reply) => {
    const bytes = await service.proposal(req.params.id);
    return reply.header('Content-Type', 'image/png').header('Cache-Control', 'no-store').send(bytes);
  });
}
