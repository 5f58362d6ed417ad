import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { parseInput } from '../http/validation.js';
import { taskCreateSchema, taskListQuerySchema, taskRenameSchema, type TaskTypeName } from './task-payload.schema.js';
import { TasksService } from './tasks.service.js';

/** The Tasks section of api.md. */
export async function tasksRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const tasks = new TasksService(ctx);

  app.get('/tasks/', async (req) => {
    const query = flatQuery(req.query);
    const paging = parsePaging(query);
    const filter = parseInput(taskListQuerySchema, { status: query.status, search: query.search || undefined }, 'query');
    const { count, results, statusCounts } = await tasks.list(filter, paging.pageSize, paging.offset);
    // status_counts: over every task whatever the filter, so a screen showing one page can still sum up all.
    return { ...listEnvelope(req, paging, count, results), status_counts: statusCounts };
  });

  app.get<{ Params: { id: string } }>('/tasks/:id/', async (req) => tasks.get(parsePathId(req.params.id)));

  /**
   * One creation handler per route. On a typed route the route decides the type (a valid `type` in the
   * body is ignored): the seed's one payload, with `type: 'prediction'`, is sent to all three.
   */
  const create = (fixedType: TaskTypeName | null) => async (req: { body: unknown }, reply: { status(code: number): unknown }) => {
    const input = parseInput(taskCreateSchema, req.body, 'task');
    const task = await tasks.create({ ...input, type: fixedType ?? input.type ?? 'prediction' });
    reply.status(201);
    return task;
  };
  app.post('/tasks/', create(null));
  app.post('/tasks/prediction/', create('prediction'));
  app.post('/tasks/first-segmentation/', create('first_segmentation'));
  app.post('/tasks/second-segmentation/', create('second_segmentation'));

  const rename = async (req: { params: { id: string }; body: unknown }) => {
    const id = parsePathId(req.params.id);
    const { name } = parseInput(taskRenameSchema, req.body, 'task');
    return tasks.rename(id, name);
  };
  app.put<{ Params: { id: string } }>('/tasks/:id/', rename);
  app.patch<{ Params: { id: string } }>('/tasks/:id/', rename);

  app.post<{ Params: { id: string } }>('/tasks/:id/cancel/', async (req) => tasks.cancel(parsePathId(req.params.id)));

  app.delete<{ Params: { id: string } }>('/tasks/:id/', async (req, reply) => {
    await tasks.delete(parsePathId(req.params.id));
    return reply.status(204).send();
  });
}
