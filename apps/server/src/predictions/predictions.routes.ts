import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { badRequest } from '../http/errors.js';
import { named } from '../http/validation.js';
import { errorResponse, idParams, otherContent, pathId } from '../openapi/route-doc.js';
import { batchCreateSchema, singlePredictSchema } from '../http/task-payload.schema.js';
import { TasksService } from '../tasks/tasks.service.js';
import { PredictionsService } from './predictions.service.js';
import { ReviewService, type Reviewer } from './review.service.js';
import {
  PPD_MAX,
  PPD_MIN,
  predictionSummarySchema,
  resultListSchema,
  resultSchema,
  REVIEW_NOTE_MAX,
  reviewHistoryEntrySchema,
  SPECIMEN_BOX_MIN,
  SPECIMEN_KINDS,
  taskSchema,
} from '@cassavascope/contract';
import { exportFileName } from './results-export.js';
import { nfc } from '../names/names.js';
import { metaQuerySchema, parseMetaQuery } from '../http/meta-query.js';
import { GROUP_VALUES_MAX, METADATA_FIELD_PATTERN, resultGroupSchema } from '@cassavascope/contract';

const idParam = (field: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `${field} must be a positive integer`)
    .transform(Number)
    .refine((n) => n >= 1 && Number.isSafeInteger(n), `${field} must be a positive integer`);

/** `true` / `false` (api.md's boolean query values); anything else is a 400 naming the field. */
const boolParam = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Most tasks a `task_ids` list may name. */
const TASK_IDS_MAX = 100;
/** `task_ids`: task ids, comma-separated (an addition: the tasks a group summary is over). */
const taskIdsParam = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()))
  .refine(
    (ids) => ids.length <= TASK_IDS_MAX && ids.every((x) => /^\d{1,15}$/.test(x) && Number(x) >= 1),
    `task ids (positive integers), comma-separated, at most ${TASK_IDS_MAX}`,
  )
  .transform((ids) => [...new Set(ids.map(Number))])
  .meta({ description: 'results of any of these tasks (comma-separated ids); not with task_id' });

const listQuerySchema = z.object({
  task_id: idParam('task_id').optional(),
  task_ids: taskIdsParam.optional(),
  newest_per_image: boolParam.optional().meta({
    description:
      "true: one result per image, its newest scored one (of the task filter's tasks), as the group summary counts",
  }),
  image_id: idParam('image_id').optional(),
  // NFC, as names are stored: either spelling of a name finds it.
  search: z.string().max(200).transform(nfc).optional(),
  severity: z.enum(['healthy', 'mild', 'severe']).optional(),
  needs_review: boolParam.optional(),
  reviewed: boolParam.optional(),
  ordering: z
    .enum(['ppd_value', '-ppd_value', 'imageName', '-imageName', 'created_time', '-created_time'])
    .default('-created_time'),
});
/** The summary takes the listing's filters (an addition), so its figures describe the results the screen lists. */
const summaryQuerySchema = listQuerySchema.pick({
  task_id: true,
  task_ids: true,
  newest_per_image: true,
  image_id: true,
  search: true,
  severity: true,
  needs_review: true,
  reviewed: true,
});
/** The export takes the listing's filters, so the file holds what the screen shows; `format` picks its rows. */
const exportQuerySchema = listQuerySchema
  .pick({ task_id: true, search: true, severity: true, needs_review: true, reviewed: true })
  .extend({ format: z.enum(['results', 'specimens']).default('results') });

/** `by`: one or two field names, comma-separated (genotype, or genotype,dah). */
const groupBy = z
  .string()
  .transform((s) => s.split(',').map((f) => f.trim()))
  .refine(
    (f) => f.length >= 1 && f.length <= 2 && f.every((x) => METADATA_FIELD_PATTERN.test(x)),
    'one or two field names, comma-separated',
  )
  .refine((f) => new Set(f).size === f.length, 'a field may be named once');
/**
 * The groups take the listing's filters (and meta.FIELD=VALUE), `task_ids` too; they always count one result per
 * image (its newest scored one, of the picked tasks when there are any): a photo is one observation.
 */
const groupsQuerySchema = listQuerySchema
  .pick({
    task_id: true,
    task_ids: true,
    image_id: true,
    search: true,
    severity: true,
    needs_review: true,
    reviewed: true,
  })
  .extend({
    by: groupBy,
    values: boolParam.optional().meta({
      description: `true: each group also lists its results' values (when the query selects at most ${GROUP_VALUES_MAX})`,
    }),
  });

/** The parsed filters as the service takes them, with the `meta.FIELD=VALUE` conditions of the query. */
function resultFilter(
  q: (
    | z.infer<typeof groupsQuerySchema>
    | z.infer<typeof exportQuerySchema>
    | z.infer<typeof listQuerySchema>
    | z.infer<typeof summaryQuerySchema>
  ) &
    z.infer<typeof metaQuerySchema>,
) {
  if (q.task_id !== undefined && 'task_ids' in q && q.task_ids !== undefined)
    throw badRequest('Invalid query: task_ids: not with task_id', { task_ids: 'not with task_id' });
  return {
    taskId: q.task_id,
    taskIds: 'task_ids' in q ? q.task_ids : undefined,
    newestPerImage: 'newest_per_image' in q ? q.newest_per_image : undefined,
    imageId: 'image_id' in q ? q.image_id : undefined,
    search: q.search,
    severity: q.severity,
    needsReview: q.needs_review,
    reviewed: q.reviewed,
    meta: parseMetaQuery(q),
  };
}

const note = z.string().max(REVIEW_NOTE_MAX, `at most ${REVIEW_NOTE_MAX} characters`).optional();
const ppd = z.number().finite().min(PPD_MIN, `PPD is on the 0-10 scale`).max(PPD_MAX, `PPD is on the 0-10 scale`);

/** `PATCH /predictions/{id}/specimens/{index}/`: excluded and/or ppd (null = the engine's value), optional note. */
const specimenPatchSchema = named(
  'review',
  z
    .object({ excluded: z.boolean().optional(), ppd: ppd.nullable().optional(), note })
    .refine((v) => v.excluded !== undefined || v.ppd !== undefined, {
      message: 'give excluded and/or ppd',
      path: ['non_field_errors'],
    }),
);

const boxSide = z.number().int('whole pixels').min(SPECIMEN_BOX_MIN, `at least ${SPECIMEN_BOX_MIN} pixels`);
/** `POST /predictions/{id}/specimens/`: a box [x, y, w, h] in original-image pixels, optional kind, ppd, note. */
const addSpecimenSchema = named(
  'specimen',
  z.object({
    box: z.tuple([
      z.number().int('whole pixels').min(0, 'inside the image'),
      z.number().int('whole pixels').min(0, 'inside the image'),
      boxSide,
      boxSide,
    ]),
    kind: z.enum(SPECIMEN_KINDS as unknown as ['root_slice', 'leaf']).optional(),
    ppd: ppd.optional(),
    note,
    model_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullish().meta({
      description:
        "the ready lab model that scores the box; null: the default engine; absent: the task's own model (when it is still ready)",
    }),
  }),
);
const singleBody = named('prediction', singlePredictSchema);
const batchBody = named('task', batchCreateSchema);

/** Who makes a review change: the signed-in user (null while sign-in is off: api.md's `user` is null). */
function reviewerOf(req: FastifyRequest): Reviewer {
  return { userId: req.user?.id ?? null };
}

/** The Predictions (results) section of api.md. */
export async function predictionsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tasks = new TasksService(ctx);
  const predictions = new PredictionsService(ctx, tasks);
  const review = new ReviewService(ctx);

  const listSchema = {
    summary: 'List results (filters, ordering, paging)',
    querystring: pagingQuerySchema.extend(listQuerySchema.shape).extend(metaQuerySchema.shape),
    response: { 200: resultListSchema },
  };
  app.get('/predictions/', { schema: listSchema }, async (req) => {
    const q = req.query;
    const paging = parsePaging(q);
    const desc = q.ordering.startsWith('-');
    const key = q.ordering.replace(/^-/, '') as 'ppd_value' | 'imageName' | 'created_time';
    const { count, results } = await predictions.list(resultFilter(q), { key, desc }, paging.pageSize, paging.offset);
    return listEnvelope(req, paging, count, results);
  });

  const summarySchema = {
    summary:
      "Count, mean, extremes, severity bands and histogram over the scored results of the listing's filters (reviewed values)",
    querystring: summaryQuerySchema.extend(metaQuerySchema.shape),
    response: { 200: predictionSummarySchema },
  };
  app.get('/predictions/summary/', { schema: summarySchema }, async (req) =>
    predictions.summary(resultFilter(req.query)),
  );

  const exportSchema = {
    summary: 'Export results as CSV (UTF-8 with BOM, one row per result, or per specimen with format=specimens)',
    querystring: exportQuerySchema.extend(metaQuerySchema.shape),
    response: {
      200: otherContent('text/csv', 'An attachment named prediction_results_{task_id or all}_{YYYY-MM-DD}.csv'),
    },
  };
  app.get('/predictions/export/', { schema: exportSchema }, async (req, reply) => {
    const q = req.query;
    const filter = resultFilter(q);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${exportFileName(q.task_id)}"`)
      .header('Cache-Control', 'no-store')
      .send(predictions.exportCsv(filter, q.format));
  });

  /** The groups' query (by, the listing's filters, meta.FIELD=VALUE) as the service's arguments. */
  const groupsQuery = groupsQuerySchema.extend(metaQuerySchema.shape);
  const groupsRequest = (q: z.infer<typeof groupsQuery>) => {
    const filter = { ...resultFilter(q), newestPerImage: true };
    return { fields: q.by, filter, taskId: q.task_id, withValues: q.values === true };
  };
  const groupsSchema = {
    summary:
      'Mean PPD per group of one or two sample fields (n, SD, 95 % interval, bands) over scored results, sorted by key',
    querystring: groupsQuery,
    response: { 200: z.array(resultGroupSchema) },
  };
  app.get('/predictions/groups/', { schema: groupsSchema }, async (req) => {
    const { fields, filter, withValues } = groupsRequest(req.query);
    return predictions.groups(filter, fields, withValues);
  });
  // An addition (docs/api.md): the same table as a CSV file, columns named for a breeding database.
  const groupsExportSchema = {
    summary:
      'The group table as CSV (UTF-8 with BOM): key fields under their ontology names, n, mean PPD under the trait id, SD, interval, bands',
    querystring: groupsQuery,
    response: {
      200: otherContent('text/csv', 'An attachment named prediction_groups_{task_id or all}_{YYYY-MM-DD}.csv'),
    },
  };
  app.get('/predictions/groups/export/', { schema: groupsExportSchema }, async (req, reply) => {
    const { fields, filter, taskId } = groupsRequest(req.query);
    const groups = await predictions.groups(filter, fields);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header(
        'Content-Disposition',
        `attachment; filename="${exportFileName(taskId).replace('prediction_results_', 'prediction_groups_')}"`,
      )
      .header('Cache-Control', 'no-store')
      .send(predictions.groupsCsv(fields, groups));
  });

  const oneSchema = { summary: 'One result', params: idParams, response: { 200: resultSchema } };
  app.get('/predictions/:id/', { schema: oneSchema }, async (req) => predictions.get(req.params.id));

  const patchSchema = {
    summary: "Review one specimen: exclude or include it, or give its PPD (null: back to the engine's value)",
    params: z.object({ id: pathId, index: pathId.meta({ description: 'the specimen, 1-based' }) }),
    body: specimenPatchSchema,
    response: {
      200: resultSchema,
      404: errorResponse('`not_found` (result) or `unknown_specimen`'),
      409: errorResponse('`not_scored`, `last_specimen` or `no_engine_value`'),
    },
  };
  app.patch('/predictions/:id/specimens/:index/', { schema: patchSchema }, async (req) =>
    review.patchSpecimen(req.params.id, req.params.index, req.body, reviewerOf(req)),
  );

  const addSchema = {
    summary: 'Add a specimen the engine missed: a box, scored by the engine unless a ppd is given',
    params: idParams,
    body: addSpecimenSchema,
    response: {
      201: resultSchema,
      409: errorResponse('`not_scored`, `image_deleted` or `image_unreadable`'),
      422: errorResponse('`box_not_scored`: the engine found no specimen in the box (give a ppd)'),
      503: errorResponse('`engine_unavailable`'),
    },
  };
  app.post('/predictions/:id/specimens/', { schema: addSchema }, async (req, reply) =>
    reply.status(201).send(await review.addSpecimen(req.params.id, req.body, reviewerOf(req))),
  );

  const historySchema = {
    summary: 'Every review change of a result, oldest first',
    params: idParams,
    response: { 200: z.array(reviewHistoryEntrySchema) },
  };
  app.get('/predictions/:id/history/', { schema: historySchema }, async (req) => review.history(req.params.id));

  const singleSchema = {
    summary: 'Score one image now (a one-image task) and answer with its result',
    body: singleBody,
    response: {
      200: resultSchema,
      400: errorResponse('`invalid` (with `fields`) or `unknown_ids`'),
      503: errorResponse('`engine_unavailable` (with `task_id`)'),
      504: errorResponse('`still_running` (with `task_id`): the result will appear under the task'),
    },
  };
  app.post('/predictions/predict_single/', { schema: singleSchema }, async (req) =>
    predictions.predictSingle({ ...req.body, createdBy: req.user?.id ?? null }),
  );

  const batchSchema = {
    summary: 'Start a prediction task (as POST /api/tasks/prediction/, the name optional)',
    body: batchBody,
    response: {
      201: taskSchema,
      400: errorResponse('`invalid` (with `fields`), `unknown_ids` (with `ids`) or `no_images`'),
    },
  };
  app.post('/predictions/predict_batch/', { schema: batchSchema }, async (req, reply) => {
    const input = req.body;
    const name = input.name ?? `Prediction ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const task = await tasks.create({
      ...input,
      name,
      type: input.type ?? 'prediction',
      createdBy: req.user?.id ?? null,
    });
    return reply.status(201).send(task);
  });
}
