import { auditInDeletion } from '../http/deletion-audit.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { ApiError } from '../http/errors.js';
import { DATE_GROUPINGS, type DateGrouping } from './image-groups.js';
import { imageListQuerySchema, parseImageListQuery } from './image-list-query.js';
import { metaQueryDocSchema } from '../metadata/meta-query.js';
import { ImagesService } from './images.service.js';
import {
  imageGroupsSchema,
  imageDaySchema,
  imageListSchema,
  imagePatchSchema,
  imageSchema,
  imageTypeSchema,
} from '@cassavascope/contract';
import { z } from 'zod';
import { doc, errorResponse } from '../openapi/route-doc.js';
import { parseInput } from '../http/validation.js';

/**
 * `GET /images/` and `GET /folders/{id}/images/` (the latter with the folder fixed by its path).
 * Validation happens before any query, so a malformed parameter changes and costs nothing.
 */
export async function listImages(req: FastifyRequest, service: ImagesService, folderId?: number) {
  const query = flatQuery(req.query);
  const paging = parsePaging(query);
  const { filter, order, groupBy } = parseImageListQuery(query);
  if (folderId !== undefined) filter.folder = folderId;
  const { count, results, facets } = await service.list(filter, order, paging, groupBy);
  return { ...listEnvelope(req, paging, count, results), facets };
}

/** `grouping` of `GET /images/groups/`: year, month or day (default); anything else is a 400 naming it. */
function parseDateGrouping(value: string | undefined): DateGrouping {
  if (value === undefined || value.trim() === '') return 'day';
  if ((DATE_GROUPINGS as readonly string[]).includes(value)) return value as DateGrouping;
  throw new ApiError(400, 'invalid', 'grouping must be year, month or day', {
    fields: { grouping: 'must be year, month or day' },
  });
}

/** Routes of the Images section of api.md. Uploads are registered from ../uploads. */
export async function imagesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new ImagesService(ctx);

  app.get(
    '/images/',
    doc({
      summary: 'List images (filters, ordering, paging) with library facets',
      query: pagingQuerySchema.extend(imageListQuerySchema.shape).extend(metaQueryDocSchema.shape),
      responses: { 200: imageListSchema },
    }),
    (req) => listImages(req, service),
  );
  app.get(
    '/images/days/',
    doc({
      summary: 'Upload days (UTC) with their image counts, newest first',
      responses: { 200: z.array(imageDaySchema) },
    }),
    () => service.days(),
  );
  // An addition (docs/api.md): group keys, counts and positions of the listing, whole filtered library.
  const groupsQuery = imageListQuerySchema.extend({ grouping: z.enum(DATE_GROUPINGS).optional() });
  const groupsDoc = doc({
    summary: "Group keys of the listing's ordering, with counts and positions over the whole filtered library",
    query: groupsQuery.extend(metaQueryDocSchema.shape),
    responses: { 200: imageGroupsSchema },
  });
  app.get('/images/groups/', groupsDoc, (req) => {
    const query = flatQuery(req.query);
    const { filter, order, groupBy } = parseImageListQuery(query);
    const grouping = parseDateGrouping(query.grouping);
    return groupBy === undefined ? service.groups(filter, order, grouping) : service.fieldGroups(filter, groupBy);
  });
  app.get(
    '/images/types/',
    doc({ summary: 'Image formats with their counts', responses: { 200: z.array(imageTypeSchema) } }),
    () => service.types(),
  );
  app.get<{ Params: { id: string } }>(
    '/images/:id/',
    doc({ summary: 'One image', responses: { 200: imageSchema } }),
    (req) => service.get(parsePathId(req.params.id)),
  );
  const patchDoc = doc({
    summary: 'Rename an image and/or set its sample fields (a null value removes a field)',
    body: imagePatchSchema,
    responses: {
      200: imageSchema,
      400: errorResponse('`invalid` (with `fields`: name, metadata.FIELD)'),
      409: errorResponse('`duplicate`: the folder has an image of that name'),
    },
  });
  app.patch<{ Params: { id: string } }>('/images/:id/', patchDoc, async (req) => {
    const id = parsePathId(req.params.id);
    const body = parseInput(imagePatchSchema, req.body, 'image change');
    return service.patch(id, body);
  });
  const deleteDoc = doc({ summary: 'Delete an image, its files and its results', responses: { 204: null } });
  app.delete<{ Params: { id: string } }>('/images/:id/', deleteDoc, async (req, reply) => {
    await service.delete(parsePathId(req.params.id), auditInDeletion(req));
    return reply.status(204).send();
  });
}
