import { FOLDER_NAME_MAX, folderListSchema, folderSchema, imageListSchema, movedSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { isPlainName, named, PLAIN_NAME_MESSAGE } from '../http/validation.js';
import { nfc } from '../names/names.js';
import { errorResponse, idParams, noBody, pathId } from '../openapi/route-doc.js';
import { imageListRouteQuery, ImagesService, listImages } from '../images/images.service.js';
import { FoldersService, type FolderDeleteMode } from './folders.service.js';

const requiredString = (what: string) =>
  z.string({
    error: (iss) =>
      iss.input === undefined || iss.input === null ? 'This field is required' : `${what} must be a string`,
  });

const folderBody = named(
  'folder',
  z.object({
    name: requiredString('name')
      .trim()
      .min(1, 'This field may not be blank')
      .max(FOLDER_NAME_MAX, `Ensure this field has no more than ${FOLDER_NAME_MAX} characters`)
      .refine(isPlainName, `name ${PLAIN_NAME_MESSAGE}`)
      .transform(nfc),
    description: z
      .string({ error: 'description must be a string' })
      .max(2000, 'Ensure this field has no more than 2000 characters')
      .nullable()
      .optional()
      .transform((d) => (d === null ? '' : d)),
  }),
);

const deleteQuery = z.object({
  images: z.enum(['move', 'delete'], { message: 'must be move or delete' }).default('move'),
  target: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a folder id')
    .transform(Number)
    .refine((n) => n >= 1, 'must be a folder id')
    .optional(),
});

const addImagesBody = named(
  'body',
  z.object({
    image_ids: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), {
        error: (iss) => (iss.input === undefined ? 'This field is required' : 'must be a list of image ids'),
      })
      .max(100_000, 'at most 100000 ids per request'),
  }),
);

/** Routes of the Folders section of api.md. */
export async function foldersRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new FoldersService(ctx);
  const images = new ImagesService(ctx);

  const listSchema = {
    summary: 'List folders, ordered by name',
    querystring: pagingQuerySchema,
    response: { 200: folderListSchema },
  };
  app.get('/folders/', { schema: listSchema }, async (req) => {
    const paging = parsePaging(req.query);
    const { count, results } = await service.list(paging);
    return listEnvelope(req, paging, count, results);
  });

  const nameTaken = errorResponse('`name_exists`: a folder of that name exists (case-insensitively)');
  const createSchema = {
    summary: 'Create a folder',
    body: folderBody,
    response: { 201: folderSchema, 409: nameTaken },
  };
  app.post('/folders/', { schema: createSchema }, async (req, reply) =>
    reply.status(201).send(await service.create(req.body)),
  );

  const oneSchema = { summary: 'One folder', params: idParams, response: { 200: folderSchema } };
  app.get('/folders/:id/', { schema: oneSchema }, (req) => service.get(req.params.id));

  const updateSchema = {
    summary: 'Rename a folder or change its description',
    params: idParams,
    body: folderBody,
    response: { 200: folderSchema, 409: nameTaken },
  };
  app.put('/folders/:id/', { schema: updateSchema }, (req) => service.update(req.params.id, req.body));

  const deleteSchema = {
    summary: 'Delete a folder; its images move (to uncategorised, or to `target`) or are deleted',
    params: idParams,
    querystring: deleteQuery,
    response: { 204: noBody },
  };
  app.delete('/folders/:id/', { schema: deleteSchema }, async (req, reply) => {
    const q = req.query;
    const mode: FolderDeleteMode =
      q.images === 'delete' ? { images: 'delete' } : { images: 'move', target: q.target ?? null };
    await service.delete(req.params.id, mode, auditInDeletion(req));
    return reply.status(204).send();
  });

  const imagesSchema = {
    summary: "A folder's images (the images listing with the folder fixed)",
    params: idParams,
    querystring: imageListRouteQuery.omit({ folder: true }),
    response: { 200: imageListSchema },
  };
  app.get('/folders/:id/images/', { schema: imagesSchema }, async (req) => {
    await service.requireExists(req.params.id);
    return listImages(req, req.query, images, req.params.id);
  });

  // `{id}` may be `none` or empty (`/folders//add_images/`): the images become uncategorised.
  const folderOrNone = z
    .union([z.literal('none').transform(() => null), pathId])
    .meta({ description: 'a folder id, or none' });
  const moveSchema = {
    summary: 'Move images into a folder (none: make them uncategorised)',
    params: z.object({ id: folderOrNone }),
    body: addImagesBody,
    response: { 200: movedSchema },
  };
  app.post('/folders/:id/add_images/', { schema: moveSchema }, async (req) => ({
    moved: await service.addImages(req.params.id, req.body.image_ids),
  }));
  const uncategoriseSchema = {
    summary: 'Make images uncategorised',
    body: addImagesBody,
    response: { 200: movedSchema },
  };
  app.post('/folders//add_images/', { schema: uncategoriseSchema }, async (req) => ({
    moved: await service.addImages(null, req.body.image_ids),
  }));
}
