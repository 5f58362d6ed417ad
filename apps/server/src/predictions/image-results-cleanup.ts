import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { resultFileKeys } from './results-cleanup.js';

/** Ids per statement (SQLite's variable limit). */
const CHUNK = 500;

/**
 * Called inside the transaction that deletes or overwrites images, before the image rows change.
 * Removes those images' prediction results, resets their PPD columns (an overwritten image has no
 * result any more) and returns the blob keys of the results' stored files, which the caller deletes
 * after commit. Task counters are history and stay as they are.
 */
export async function removeResultsOfImages(trx: Kysely<Database>, imageIds: number[]): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < imageIds.length; i += CHUNK) {
    const ids = imageIds.slice(i, i + CHUNK);
    const rows = await trx.selectFrom('results').select(['oss_key', 'vis_keys', 'specimens']).where('image_id', 'in', ids).execute();
    for (const row of rows) keys.push(...resultFileKeys(row));
    await trx.deleteFrom('results').where('image_id', 'in', ids).execute();
    await trx
      .updateTable('images')
      .set({ ppd_value: null, last_prediction: null, last_result_id: null })
      .where('id', 'in', ids)
      .execute();
  }
  return keys;
}
