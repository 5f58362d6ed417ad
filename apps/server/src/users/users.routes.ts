import { createUserBodySchema, updateUserBodySchema, userListSchema, userRowSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { flatQuery, listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { parsePathId } from '../http/path-id.js';
import { parseInput } from '../http/validation.js';
import { doc, errorResponse } from '../openapi/route-doc.js';
import { UsersService } from './users.service.js';

/** `/users/` (admin only, enforced by auth/role-policy.ts): list, create, change role or password, delete. */
export async function usersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const users = new UsersService(ctx.db);
  const lastAdmin = errorResponse('`last_admin`: the last admin cannot be removed or demoted');

  app.get(
    '/users/',
    doc({ summary: 'List users, by name', query: pagingQuerySchema, responses: { 200: userListSchema } }),
    async (req) => {
      const paging = parsePaging(flatQuery(req.query));
      const { count, results } = await users.list(paging);
      return listEnvelope(req, paging, count, results);
    },
  );

  const createDoc = doc({
    summary: 'Create a user (password of at least 10 characters)',
    body: createUserBodySchema,
    responses: { 201: userRowSchema, 409: errorResponse('`username_exists` (names compare case-insensitively)') },
  });
  app.post('/users/', createDoc, async (req, reply) => {
    const body = parseInput(createUserBodySchema, req.body, 'user');
    return reply.status(201).send(await users.create(body));
  });

  const updateDoc = doc({
    summary: "Change a user's role and/or password",
    body: updateUserBodySchema,
    responses: { 200: userRowSchema, 409: lastAdmin },
  });
  app.patch<{ Params: { id: string } }>('/users/:id/', updateDoc, async (req) => {
    const id = parsePathId(req.params.id);
    const body = parseInput(updateUserBodySchema, req.body, 'user');
    return users.update(id, body, req.user?.id ?? null);
  });

  app.delete<{ Params: { id: string } }>(
    '/users/:id/',
    doc({ summary: 'Delete a user (and end their sessions)', responses: { 204: null, 409: lastAdmin } }),
    async (req, reply) => {
      await users.delete(parsePathId(req.params.id), auditInDeletion(req));
      return reply.status(204).send();
    },
  );
}
