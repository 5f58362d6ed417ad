import { taskListSchema, taskSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { named } from '../http/validation.js';
import { errorResponse, idParams, noBody } from '../openapi/route-doc.js';
import {
  taskCreateSchema,
  taskListQuerySchema,
  taskRenameSchema,
  type TaskTypeName,
} from '../http/task-payload.schema.js';
import { TasksService } from './tasks.service.js';

const createBody = named('task', taskCreateSchema);
const renameBody = named('task', taskRenameSchema);

/** The Tasks section of api.md. */
export async function tasksRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tasks = new TasksService(ctx);

  const listSchema = {
    summary: 'List tasks, newest first, with the count of each status over all tasks',
    querystring: pagingQuerySchema.extend(taskListQuerySchema.shape),
    response: { 200: taskListSchema },
  };
  app.get('/tasks/', { schema: listSchema }, async (req) => {
    const paging = parsePaging(req.query);
    const filter = { status: req.query.status, search: req.query.search };
    const { count, results, statusCounts } = await tasks.list(filter, paging.pageSize, paging.offset);
    // status_counts: over every task whatever the filter, so a screen showing one page can still sum up all.
    return { ...listEnvelope(req, paging, count, results), status_counts: statusCounts };
  });

  const oneSchema = { summary: 'One task', params: idParams, response: { 200: taskSchema } };
  app.get('/tasks/:id/', { schema: oneSchema }, async (req) => tasks.get(req.params.id));

  /**
   * One creation route per type. On a typed route the route decides the type (a valid `type` in the
   * body is ignored): the seed's one payload, with `type: 'prediction'`, is sent to all three.
   */
  const createRoute = (url: string, summary: string, fixedType: TaskTypeName | null) => {
    const schema = {
      summary,
      description:
        'Answers at once with the task `running`; the work happens in the background (follow it with GET /api/tasks/{id}/).',
      body: createBody,
      response: {
        201: taskSchema,
        400: errorResponse('`invalid` (with `fields`), `unknown_ids` (with `ids`) or `no_images`'),
      },
    };
    app.post(url, { schema }, async (req, reply) => {
      const input = req.body;
      const task = await tasks.create({
        ...input,
        type: fixedType ?? input.type ?? 'prediction',
        createdBy: req.user?.id ?? null,
      });
      return reply.status(201).send(task);
    });
  };
  createRoute('/tasks/', 'Start a task (type from the body, default prediction)', null);
  createRoute('/tasks/prediction/', 'Start a prediction task: find the specimens and score their PPD', 'prediction');
  createRoute(
    '/tasks/first-segmentation/',
    "Start a first segmentation: the specimens' cuts only",
    'first_segmentation',
  );
  createRoute(
    '/tasks/second-segmentation/',
    'Start a second segmentation: lesions inside the cuts, and PPD',
    'second_segmentation',
  );

  const renameSchema = { summary: 'Rename a task', params: idParams, body: renameBody, response: { 200: taskSchema } };
  app.put('/tasks/:id/', { schema: renameSchema }, async (req) => tasks.rename(req.params.id, req.body.name));
  app.patch('/tasks/:id/', { schema: renameSchema }, async (req) => tasks.rename(req.params.id, req.body.name));

  const cancelSchema = {
    summary: 'Cancel a running task (the results stored so far stay)',
    params: idParams,
    response: { 200: taskSchema, 409: errorResponse("`not_running` (with the task's `status`)") },
  };
  app.post('/tasks/:id/cancel/', { schema: cancelSchema }, async (req) => tasks.cancel(req.params.id));

  const deleteSchema = {
    summary: 'Delete a task (cancelled first if running), its results and their files',
    params: idParams,
    response: { 204: noBody },
  };
  app.delete('/tasks/:id/', { schema: deleteSchema }, async (req, reply) => {
    await tasks.delete(req.params.id, auditInDeletion(req));
    return reply.status(204).send();
  });
}
