import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The stored files of a result row: its overview (`oss_key`) and its cut/prediction images. */
export function resultFileKeys(row: { oss_key: string | null; vis_keys: string }): string[] {
  const vis = JSON.parse(row.vis_keys) as Record<string, string>;
  return [...(row.oss_key ? [row.oss_key] : []), ...Object.values(vis)];
}

/**
 * Sets each image's PPD columns from its newest scored result, or back to null when it has none
 * (after results were removed). Runs inside the caller's transaction.
 */
export async function refreshImagesLastResult(trx: Kysely<Database>, imageIds: number[]): Promise<void> {
  for (const imageId of imageIds) {
    const newest = await trx
      .selectFrom('results')
      .select(['id', 'ppd_value', 'prediction'])
      .where('image_id', '=', imageId)
      .where('ppd_value', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    await trx
      .updateTable('images')
      .set({
        ppd_value: newest?.ppd_value ?? null,
        last_prediction: newest?.prediction ?? null,
        last_result_id: newest?.id ?? null,
      })
      .where('id', '=', imageId)
      .execute();
  }
}
