import { FOLDER_NAME_MAX } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { isPlainName, parseInput, PLAIN_NAME_MESSAGE } from '../http/validation.js';
import { nfc } from '../names/names.js';
import { listImages } from '../images/images.routes.js';
import { ImagesService } from '../images/images.service.js';
import { FoldersService, type FolderDeleteMode } from './folders.service.js';

const requiredString = (what: string) =>
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'This field is required' : `${what} must be a string`) });

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
  image_ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), {
    error: (iss) => (iss.input === undefined ? 'This field is required' : 'must be a list of image ids'),
  }).max(100_000, 'at most 100000 ids per request'),
});

/** Routes of the Folders section of api.md. */
export async function foldersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new FoldersService(ctx);
  const images = new ImagesService(ctx);

  app.get('/folders/', async (req) => {
    const paging = parsePaging(flatQuery(req.query));
    const { count, results } = await service.list(paging);
    return listEnvelope(req, paging, count, results);
  });

  app.post('/folders/', async (req, reply) => {
    const body = parseInput(folderBody, req.body, 'folder');
    return reply.status(201).send(await service.create(body));
  });

  app.get<{ Params: { id: string } }>('/folders/:id/', (req) => service.get(parsePathId(req.params.id)));

  app.put<{ Params: { id: string } }>('/folders/:id/', (req) => {
    const id = parsePathId(req.params.id);
    return service.update(id, parseInput(folderBody, req.body, 'folder'));
  });

  app.delete<{ Params: { id: string } }>('/folders/:id/', async (req, reply) => {
    const id = parsePathId(req.params.id);
    const query = flatQuery(req.query);
    const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
    const q = parseInput(deleteQuery, { images: present.images, target: present.target }, 'query');
    const mode: FolderDeleteMode = q.images === 'delete' ? { images: 'delete' } : { images: 'move', target: q.target ?? null };
    await service.delete(id, mode);
    return reply.status(204).send();
  });

  app.get<{ Params: { id: string } }>('/folders/:id/images/', async (req) => {
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
  app.post<{ Params: { id: string } }>('/folders/:id/add_images/', (req) => addImages(req.params.id, req.body));
  app.post('/folders//add_images/', (req) => addImages(undefined, req.body));
}
