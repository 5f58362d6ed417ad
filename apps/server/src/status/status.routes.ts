import { serverStatusSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { serverStatus } from './status.service.js';

/** The Status section of api.md. */
export async function statusRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/status/',
    {
      schema: {
        summary: 'Server status: version, counts, engine, backends, disk and a live check of each endpoint',
        response: { 200: serverStatusSchema },
      },
    },
    async (req) => serverStatus(app, ctx, req.headers.cookie),
  );
}
