import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Routes of the folders section of api.md (placeholder until its issue lands). */
export async function foldersRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
