import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Called inside the transaction that deletes or overwrites images, before the image rows change.
 * Removes those images' prediction results and returns the blob keys of their stored files, which the
 * caller deletes after commit. (Placeholder until the tasks/results issue lands.)
 */
export async function removeResultsOfImages(_trx: Kysely<Database>, _imageIds: number[]): Promise<string[]> {
  return [];
}
