import { libraryFiguresSchema } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { libraryFigures } from './figures.service.js';

/** `GET /figures/` (an addition, docs/api.md): the library's own figures, for the home page. */
export async function figuresRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/figures/',
    {
      schema: {
        summary:
          "The library's figures: photos, photos scored, specimens scored (each photo's newest result), photos reviewed, researchers",
        response: { 200: libraryFiguresSchema },
      },
    },
    async () => libraryFigures(ctx),
  );
}
