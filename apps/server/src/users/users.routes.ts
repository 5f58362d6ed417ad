import { createUserBodySchema, updateUserBodySchema, userListSchema, userRowSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditInDeletion } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { listEnvelope, pagingQuerySchema, parsePaging } from '../http/paging.js';
import { named } from '../http/validation.js';
import { errorResponse, idParams, noBody } from '../openapi/route-doc.js';
import { UsersService } from './users.service.js';

const createBody = named('user', createUserBodySchema);
const updateBody = named('user', updateUserBodySchema);

/** `/users/` (admin only, enforced by auth/role-policy.ts): list, create, change role or password, delete. */
export async function usersRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const users = new UsersService(ctx.db);
  const lastAdmin = errorResponse('`last_admin`: the last admin cannot be removed or demoted');

  const listSchema = {
    summary: 'List users, by name',
    querystring: pagingQuerySchema,
    response: { 200: userListSchema },
  };
  app.get('/users/', { schema: listSchema }, async (req) => {
    const paging = parsePaging(req.query);
    const { count, results } = await users.list(paging);
    return listEnvelope(req, paging, count, results);
  });

  const createSchema = {
    summary: 'Create a user (password of at least 10 characters)',
    body: createBody,
    response: { 201: userRowSchema, 409: errorResponse('`username_exists` (names compare case-insensitively)') },
  };
  app.post('/users/', { schema: createSchema }, async (req, reply) =>
    reply.status(201).send(await users.create(req.body)),
  );

  const updateSchema = {
    summary: "Change a user's role and/or password",
    params: idParams,
    body: updateBody,
    response: { 200: userRowSchema, 409: lastAdmin },
  };
  app.patch('/users/:id/', { schema: updateSchema }, async (req) =>
    users.update(req.params.id, req.body, req.user?.id ?? null),
  );

  const deleteSchema = {
    summary: 'Delete a user (and end their sessions)',
    params: idParams,
    response: { 204: noBody, 409: lastAdmin },
  };
  app.delete('/users/:id/', { schema: deleteSchema }, async (req, reply) => {
    await users.delete(req.params.id, auditInDeletion(req));
    return reply.status(204).send();
  });
}
