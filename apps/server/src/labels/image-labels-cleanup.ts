import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ImagesRepository } from '../images/images.repository.js';
import { LabelsRepository } from './labels.repository.js';

/**
 * Called inside the transaction that deletes or overwrites images, before the image rows change: locks those
 * images' rows (PostgreSQL; a label write holds the same lock, so it either committed before and its row is
 * removed here, or it waits and then finds the image gone) and removes their labels. Returns the labels' blob
 * keys for the caller to delete after commit.
 */
export async function removeLabelsOfImages(
  trx: Kysely<Database>,
  imageIds: number[],
  dialect: 'sqlite' | 'postgres',
): Promise<string[]> {
  if (imageIds.length === 0) return [];
  await new ImagesRepository(trx, dialect).lockExisting(imageIds, trx);
  return new LabelsRepository(trx).removeForImages(imageIds);
}
