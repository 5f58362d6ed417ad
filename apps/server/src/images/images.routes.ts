import { auditInDeletion } from '../http/deletion-audit.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { DATE_GROUPINGS } from './image-groups.js';
import { imageListFilterSchema, parseImageListQuery } from './image-list-query.js';
import { imageListRouteQuery, ImagesService, listImages } from './images.service.js';
import {
  imageGroupsSchema,
  imageDaySchema,
  imageListSchema,
  imagePatchSchema,
  imageSchema,
  imageTypeSchema,
} from '@cassavascope/contract';
import { z } from 'zod';
import { errorResponse, idParams, noBody } from '../openapi/route-doc.js';
import { named } from '../http/validation.js';

/** `PATCH /images/{id}/`'s body, named in its 400s. */
const patchBody = named('image change', imagePatchSchema);

/** Routes of the Images section of api.md. Uploads are registered from ../uploads. */
export async function imagesRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new ImagesService(ctx);

  const listSchema = {
    summary: 'List images (filters, ordering, paging) with library facets',
    querystring: imageListRouteQuery,
    response: { 200: imageListSchema },
  };
  app.get('/images/', { schema: listSchema }, (req) => listImages(req, req.query, service));
  const daysSchema = {
    summary: 'Upload days (UTC) with their image counts, newest first',
    response: { 200: z.array(imageDaySchema) },
  };
  app.get('/images/days/', { schema: daysSchema }, () => service.days());
  // An addition (docs/api.md): group keys, counts and positions of the listing, whole filtered library.
  const groupsSchema = {
    summary: "Group keys of the listing's ordering, with counts and positions over the whole filtered library",
    querystring: imageListFilterSchema.extend({
      grouping: z.enum(DATE_GROUPINGS, { message: 'must be year, month or day' }).default('day'),
    }),
    response: { 200: imageGroupsSchema },
  };
  app.get('/images/groups/', { schema: groupsSchema }, (req) => {
    const { filter, order, groupBy } = parseImageListQuery(req.query);
    return groupBy === undefined
      ? service.groups(filter, order, req.query.grouping)
      : service.fieldGroups(filter, groupBy);
  });
  const typesSchema = { summary: 'Image formats with their counts', response: { 200: z.array(imageTypeSchema) } };
  app.get('/images/types/', { schema: typesSchema }, () => service.types());
  const oneSchema = { summary: 'One image', params: idParams, response: { 200: imageSchema } };
  app.get('/images/:id/', { schema: oneSchema }, (req) => service.get(req.params.id));
  const patchSchema = {
    summary: 'Rename an image and/or set its sample fields (a null value removes a field)',
    params: idParams,
    body: patchBody,
    response: {
      200: imageSchema,
      400: errorResponse('`invalid` (with `fields`: name, metadata.FIELD)'),
      409: errorResponse('`duplicate`: the folder has an image of that name'),
    },
  };
  app.patch('/images/:id/', { schema: patchSchema }, async (req) => service.patch(req.params.id, req.body));
  const deleteSchema = {
    summary: 'Delete an image, its files and its results',
    params: idParams,
    response: { 204: noBody },
  };
  app.delete('/images/:id/', { schema: deleteSchema }, async (req, reply) => {
    await service.delete(req.params.id, auditInDeletion(req));
    return reply.status(204).send();
  });
}
