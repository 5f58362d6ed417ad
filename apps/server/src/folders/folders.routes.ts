import { FOLDER_NAME_MAX, folderListSchema, folderSchema, imageListSchema, movedSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { isPlainName, parseInput, PLAIN_NAME_MESSAGE } from '../http/validation.js';
import { nfc } from '../names/names.js';
import { listImages } from '../images/images.routes.js';
import { imageListQuerySchema } from '../images/image-list-query.js';
import { metaQueryDocSchema } from '../metadata/meta-query.js';
import { doc, errorResponse } from '../openapi/route-doc.js';
import { ImagesService } from '../images/images.service.js';
import { FoldersService, type FolderDeleteMode } from './folders.service.js';

const requiredString = (what: string) =>
  z.string({
    error: (iss) =>
      iss.input === undefined || iss.input === null ? 'This field is required' : `${what} must be a string`,
  });

const folderBody = z.object({
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
});

const deleteQuery = z.object({
  images: z.enum(['move', 'delete'], { message: 'must be move or delete' }).default('move'),
  target: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a folder id')
    .transform(Number)
    .refine((n) => n >= 1, 'must be a folder id')
    .optional(),
});

const addImagesBody = z.object({
  image_ids: z
    .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), {
      error: (iss) => (iss.input === undefined ? 'This field is required' : 'must be a list of image ids'),
    })
    .max(100_000, 'at most 100000 ids per request'),
});

/** Routes of the Folders section of api.md. */
export async function foldersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new FoldersService(ctx);
  const images = new ImagesService(ctx);

  app.get(
    '/folders/',
    doc({ summary: 'List folders, ordered by name', query: pagingQuerySchema, responses: { 200: folderListSchema } }),
    async (req) => {
      const paging = parsePaging(flatQuery(req.query));
      const { count, results } = await service.list(paging);
      return listEnvelope(req, paging, count, results);
    },
  );

  const nameTaken = errorResponse('`name_exists`: a folder of that name exists (case-insensitively)');
  app.post(
    '/folders/',
    doc({ summary: 'Create a folder', body: folderBody, responses: { 201: folderSchema, 409: nameTaken } }),
    async (req, reply) => {
      const body = parseInput(folderBody, req.body, 'folder');
      return reply.status(201).send(await service.create(body));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/folders/:id/',
    doc({ summary: 'One folder', responses: { 200: folderSchema } }),
    (req) => service.get(parsePathId(req.params.id)),
  );

  const updateDoc = doc({
    summary: 'Rename a folder or change its description',
    body: folderBody,
    responses: { 200: folderSchema, 409: nameTaken },
  });
  app.put<{ Params: { id: string } }>('/folders/:id/', updateDoc, (req) => {
    const id = parsePathId(req.params.id);
    return service.update(id, parseInput(folderBody, req.body, 'folder'));
  });

  const deleteDoc = doc({
    summary: 'Delete a folder; its images move (to uncategorised, or to `target`) or are deleted',
    query: deleteQuery,
    responses: { 204: null },
  });
  app.delete<{ Params: { id: string } }>('/folders/:id/', deleteDoc, async (req, reply) => {
    const id = parsePathId(req.params.id);
    const query = flatQuery(req.query);
    const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
    const q = parseInput(deleteQuery, { images: present.images, target: present.target }, 'query');
    const mode: FolderDeleteMode =
      q.images === 'delete' ? { images: 'delete' } : { images: 'move', target: q.target ?? null };
    await service.delete(id, mode, auditInDeletion(req));
    return reply.status(204).send();
  });

  const imagesDoc = doc({
    summary: "A folder's images (the images listing with the folder fixed)",
    query: pagingQuerySchema.extend(imageListQuerySchema.omit({ folder: true }).shape).extend(metaQueryDocSchema.shape),
    responses: { 200: imageListSchema },
  });
  app.get<{ Params: { id: string } }>('/folders/:id/images/', imagesDoc, async (req) => {
    const id = parsePathId(req.params.id);
    await service.requireExists(id);
    return listImages(req, images, id);
  });

  // `{id}` may be `none` or empty (`/folders//add_images/`): the images become uncategorised.
  const addImages = async (rawId: string | undefined, body: unknown) => {
    const folderId = rawId === undefined || rawId === '' || rawId === 'none' ? null : parsePathId(rawId);
    const { image_ids } = parseInput(addImagesBody, body, 'body');
    return { moved: await service.addImages(folderId, image_ids) };
  };
  const moveDoc = (summary: string, params?: { id: z.ZodType }) =>
    doc({ summary, params, body: addImagesBody, responses: { 200: movedSchema } });
  const folderOrNone = z
    .union([z.literal('none'), z.string().regex(/^\d{1,15}$/)])
    .meta({ description: 'a folder id, or none' });
  app.post<{ Params: { id: string } }>(
    '/folders/:id/add_images/',
    moveDoc('Move images into a folder (none: make them uncategorised)', { id: folderOrNone }),
    (req) => addImages(req.params.id, req.body),
  );
  app.post('/folders//add_images/', moveDoc('Make images uncategorised'), (req) => addImages(undefined, req.body));
}
