import { storageCheckSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { errorResponse } from '../openapi/route-doc.js';
import { StorageChecks } from './storage-check.service.js';

/**
 * `/storage-check/` (issue 26, point 6): the last check of the stored files with its problems, and "check now"
 * (admin only, auth/role-policy.ts). The scheduled check (STORAGE_CHECK_HOURS) runs in every API process's
 * schedule; the one that claims the row runs it.
 */
export async function storageCheckRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const checks = new StorageChecks(ctx, ctx.config.storageCheck);
  checks.startSchedule();
  app.addHook('onClose', () => checks.close());

  app.get(
    '/storage-check/',
    {
      schema: {
        summary: 'The last check of the stored files: counts, its first problems, and whether one runs now',
        response: { 200: storageCheckSchema },
      },
    },
    async () => checks.details(),
  );

  app.post(
    '/storage-check/',
    {
      schema: {
        summary: 'Start a check of every stored file now (admin); it runs in the background',
        response: { 202: storageCheckSchema, 409: errorResponse('`storage_check_running`: a check is running') },
      },
    },
    async (_req, reply) => {
      if (!(await checks.startNow()))
        throw new ApiError(409, 'storage_check_running', 'A storage check is running already');
      return reply.status(202).send(await checks.details());
    },
  );
}
