import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ResultsRepository } from './results.repository.js';

/**
 * Called inside the transaction that deletes or overwrites images, before the image rows change: the
 * results' owner (ResultsRepository) removes those images' results and resets their PPD columns, and the
 * blob keys of the results' stored files come back for the caller to delete after commit.
 */
export async function removeResultsOfImages(trx: Kysely<Database>, imageIds: number[]): Promise<string[]> {
  return new ResultsRepository(trx).removeForImages(imageIds);
}
