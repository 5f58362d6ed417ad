import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { parseInput } from '../http/validation.js';
import { batchCreateSchema, singlePredictSchema } from '../tasks/task-payload.schema.js';
import { TasksService } from '../tasks/tasks.service.js';
import { PredictionsService } from './predictions.service.js';
import { exportFileName } from './results-export.js';
import { nfc } from '../names/names.js';

const idParam = (field: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `${field} must be a positive integer`)
    .transform(Number)
    .refine((n) => n >= 1 && Number.isSafeInteger(n), `${field} must be a positive integer`);

/** `true` / `false` (api.md's boolean query values); anything else is a 400 naming the field. */
const boolParam = z.enum(['true', 'false']).transform((v) => v === 'true');

const listQuerySchema = z.object({
  task_id: idParam('task_id').optional(),
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
const taskQuerySchema = z.object({ task_id: idParam('task_id').optional() });
/** The export takes the listing's filters, so the file holds what the screen shows; `format` picks its rows. */
const exportQuerySchema = listQuerySchema
  .pick({ task_id: true, search: true, severity: true, needs_review: true, reviewed: true })
  .extend({ format: z.enum(['results', 'specimens']).default('results') });

/** The Predictions (results) section of api.md. */
export async function predictionsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const tasks = new TasksService(ctx);
  const predictions = new PredictionsService(ctx, tasks);

  app.get('/predictions/', async (req) => {
    const query = flatQuery(req.query);
    const paging = parsePaging(query);
    const q = parseInput(
      listQuerySchema,
      {
        task_id: query.task_id || undefined,
        image_id: query.image_id || undefined,
        search: query.search || undefined,
        severity: query.severity || undefined,
        needs_review: query.needs_review || undefined,
        reviewed: query.reviewed || undefined,
        ordering: query.ordering || undefined,
      },
      'query',
    );
    const desc = q.ordering.startsWith('-');
    const key = q.ordering.replace(/^-/, '') as 'ppd_value' | 'imageName' | 'created_time';
    const { count, results } = await predictions.list(
      { taskId: q.task_id, imageId: q.image_id, search: q.search, severity: q.severity, needsReview: q.needs_review, reviewed: q.reviewed },
      { key, desc },
      paging.pageSize,
      paging.offset,
    );
    return listEnvelope(req, paging, count, results);
  });

  app.get('/predictions/summary/', async (req) => {
    const query = flatQuery(req.query);
    const { task_id } = parseInput(taskQuerySchema, { task_id: query.task_id || undefined }, 'query');
    return predictions.summary(task_id);
  });

  app.get('/predictions/export/', async (req, reply) => {
    const query = flatQuery(req.query);
    const q = parseInput(
      exportQuerySchema,
      {
        task_id: query.task_id || undefined,
        search: query.search || undefined,
        severity: query.severity || undefined,
        needs_review: query.needs_review || undefined,
        reviewed: query.reviewed || undefined,
        format: query.format || undefined,
      },
      'query',
    );
    const filter = { taskId: q.task_id, search: q.search, severity: q.severity, needsReview: q.needs_review, reviewed: q.reviewed };
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${exportFileName(q.task_id)}"`)
      .header('Cache-Control', 'no-store')
      .send(predictions.exportCsv(filter, q.format));
  });

  app.get<{ Params: { id: string } }>('/predictions/:id/', async (req) => predictions.get(parsePathId(req.params.id)));

  app.post('/predictions/predict_single/', async (req) => {
    const input = parseInput(singlePredictSchema, req.body, 'prediction');
    return predictions.predictSingle(input);
  });

  app.post('/predictions/predict_batch/', async (req, reply) => {
    const input = parseInput(batchCreateSchema, req.body, 'task');
    const name = input.name ?? `Prediction ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const task = await tasks.create({ ...input, name, type: input.type ?? 'prediction' });
    return reply.status(201).send(task);
  });
}
