import { taskListSchema, taskSchema } from '@cassavascope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { parseInput } from '../http/validation.js';
import { doc, errorResponse } from '../openapi/route-doc.js';
import { taskCreateSchema, taskListQuerySchema, taskRenameSchema, type TaskTypeName } from './task-payload.schema.js';
import { TasksService } from './tasks.service.js';

/** The Tasks section of api.md. */
export async function tasksRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const tasks = new TasksService(ctx);

  const listDoc = doc({
    summary: 'List tasks, newest first, with the count of each status over all tasks',
    query: pagingQuerySchema.extend(taskListQuerySchema.shape),
    responses: { 200: taskListSchema },
  });
  app.get('/tasks/', listDoc, async (req) => {
    const query = flatQuery(req.query);
    const paging = parsePaging(query);
    const filter = parseInput(
      taskListQuerySchema,
      { status: query.status, search: query.search || undefined },
      'query',
    );
    const { count, results, statusCounts } = await tasks.list(filter, paging.pageSize, paging.offset);
    // status_counts: over every task whatever the filter, so a screen showing one page can still sum up all.
    return { ...listEnvelope(req, paging, count, results), status_counts: statusCounts };
  });

  app.get<{ Params: { id: string } }>(
    '/tasks/:id/',
    doc({ summary: 'One task', responses: { 200: taskSchema } }),
    async (req) => tasks.get(parsePathId(req.params.id)),
  );

  /**
   * One creation handler per route. On a typed route the route decides the type (a valid `type` in the
   * body is ignored): the seed's one payload, with `type: 'prediction'`, is sent to all three.
   */
  const create = (fixedType: TaskTypeName | null) => async (req: FastifyRequest, reply: FastifyReply) => {
    const input = parseInput(taskCreateSchema, req.body, 'task');
    const task = await tasks.create({
      ...input,
      type: fixedType ?? input.type ?? 'prediction',
      createdBy: req.user?.id ?? null,
    });
    reply.status(201);
    return task;
  };
  const createDoc = (summary: string) =>
    doc({
      summary,
      description:
        'Answers at once with the task `running`; the work happens in the background (follow it with GET /api/tasks/{id}/).',
      body: taskCreateSchema,
      responses: {
        201: taskSchema,
        400: errorResponse('`invalid` (with `fields`), `unknown_ids` (with `ids`) or `no_images`'),
      },
    });
  app.post('/tasks/', createDoc('Start a task (type from the body, default prediction)'), create(null));
  app.post(
    '/tasks/prediction/',
    createDoc('Start a prediction task: find the specimens and score their PPD'),
    create('prediction'),
  );
  app.post(
    '/tasks/first-segmentation/',
    createDoc("Start a first segmentation: the specimens' cuts only"),
    create('first_segmentation'),
  );
  app.post(
    '/tasks/second-segmentation/',
    createDoc('Start a second segmentation: lesions inside the cuts, and PPD'),
    create('second_segmentation'),
  );

  const rename = async (req: { params: { id: string }; body: unknown }) => {
    const id = parsePathId(req.params.id);
    const { name } = parseInput(taskRenameSchema, req.body, 'task');
    return tasks.rename(id, name);
  };
  const renameDoc = doc({ summary: 'Rename a task', body: taskRenameSchema, responses: { 200: taskSchema } });
  app.put<{ Params: { id: string } }>('/tasks/:id/', renameDoc, rename);
  app.patch<{ Params: { id: string } }>('/tasks/:id/', renameDoc, rename);

  const cancelDoc = doc({
    summary: 'Cancel a running task (the results stored so far stay)',
    responses: { 200: taskSchema, 409: errorResponse("`not_running` (with the task's `status`)") },
  });
  app.post<{ Params: { id: string } }>('/tasks/:id/cancel/', cancelDoc, async (req) =>
    tasks.cancel(parsePathId(req.params.id)),
  );

  const deleteDoc = doc({
    summary: 'Delete a task (cancelled first if running), its results and their files',
    responses: { 204: null },
  });
  app.delete<{ Params: { id: string } }>('/tasks/:id/', deleteDoc, async (req, reply) => {
    await tasks.delete(parsePathId(req.params.id), auditInDeletion(req));
    return reply.status(204).send();
  });
}
