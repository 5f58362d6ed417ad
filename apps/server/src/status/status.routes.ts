import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Routes of the status section of api.md (placeholder until its issue lands). */
export async function statusRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
