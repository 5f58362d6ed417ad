import type { Kysely, Selectable } from 'kysely';
import type { Database, ImageLabelsTable } from '../db/schema.js';

export type LabelRow = Selectable<ImageLabelsTable>;

type Db = Kysely<Database>;

/** Every SQL query about `image_labels` (migration 0016). Writers take the caller's transaction. */
export class LabelsRepository {
  constructor(private readonly db: Db) {}

  async get(imageId: number, db: Db = this.db): Promise<LabelRow | undefined> {
    return db.selectFrom('image_labels').selectAll().where('image_id', '=', imageId).executeTakeFirst();
  }

  /** Inserts or replaces the image's labels (the caller holds the image's row lock, so one writer at a time). */
  async put(row: LabelRow, db: Db = this.db): Promise<void> {
    const { image_id: _id, ...rest } = row;
    await db
      .insertInto('image_labels')
      .values(row)
      .onConflict((oc) => oc.column('image_id').doUpdateSet(rest))
      .execute();
  }

  /** Removes the labels of these images; returns their blob keys (to delete after commit). */
  async removeForImages(imageIds: number[], db: Db = this.db): Promise<string[]> {
    const keys: string[] = [];
    for (const chunk of chunks(imageIds)) {
      const rows = await db.deleteFrom('image_labels').where('image_id', 'in', chunk).returning('blob_key').execute();
      keys.push(...rows.map((r) => r.blob_key));
    }
    return keys;
  }

  /** Which of these images have labels (a page of the listing: one query). */
  async labelledAmong(imageIds: number[], db: Db = this.db): Promise<Set<number>> {
    const out = new Set<number>();
    for (const chunk of chunks(imageIds)) {
      const rows = await db.selectFrom('image_labels').select('image_id').where('image_id', 'in', chunk).execute();
      for (const r of rows) out.add(r.image_id);
    }
    return out;
  }

  /** Of these blob keys, those a label row names (for the orphan sweep). */
  async existingKeys(keys: string[], db: Db = this.db): Promise<Set<string>> {
    const out = new Set<string>();
    for (const chunk of chunks(keys)) {
      const rows = await db.selectFrom('image_labels').select('blob_key').where('blob_key', 'in', chunk).execute();
      for (const r of rows) out.add(r.blob_key);
    }
    return out;
  }

  /** A page of label rows in image order with their file's key (for the storage check). */
  async storedFilesPage(afterImageId: number, limit: number): Promise<{ image_id: number; blob_key: string }[]> {
    return this.db
      .selectFrom('image_labels')
      .select(['image_id', 'blob_key'])
      .where('image_id', '>', afterImageId)
      .orderBy('image_id')
      .limit(limit)
      .execute();
  }
}

/** SQL parameter lists stay well under the drivers' limits. */
function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
