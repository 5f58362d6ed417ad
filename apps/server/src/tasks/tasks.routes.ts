import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Routes of the tasks section of api.md (placeholder until its issue lands). */
export async function tasksRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
