import type { LibraryFigures } from '@cassavascope/contract';
import type { AppContext } from '../context.js';
import { ImagesRepository } from '../images/images.repository.js';
import { ResultsRepository } from '../predictions/results.repository.js';
import { UsersRepository } from '../users/users.repository.js';

/**
 * `GET /figures/`: this library's real figures for the home page (photos, photos scored, specimens scored, photos
 * reviewed, researchers), each read through the owner of its rows. Researchers are the user accounts when sign-in
 * is on; with it off the server is one researcher's own (api.md, sign-in), so 1.
 */
export async function libraryFigures(ctx: AppContext): Promise<LibraryFigures> {
  const db = ctx.db.kysely;
  const [photos, results, users] = await Promise.all([
    new ImagesRepository(db, ctx.db.dialect).count({}),
    new ResultsRepository(db).libraryFigures(),
    ctx.config.auth.enabled ? new UsersRepository(db).count() : Promise.resolve(1),
  ]);
  return {
    photos,
    photos_scored: results.photosScored,
    specimens_scored: results.specimensScored,
    photos_reviewed: results.photosReviewed,
    researchers: users,
  };
}
