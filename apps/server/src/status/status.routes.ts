import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { serverStatus } from './status.service.js';

/** The Status section of api.md. */
export async function statusRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/status/', async () => serverStatus(app, ctx));
}
