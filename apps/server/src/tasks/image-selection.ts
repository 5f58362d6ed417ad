import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Ids per statement (SQLite's variable limit). */
const CHUNK = 500;

/** Read-only lookups that turn a task's image_ids/folder_ids into a list of existing images. */
export class ImageSelection {
  constructor(private readonly db: Kysely<Database>) {}

  async imageName(id: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('images').select('name').where('id', '=', id).executeTakeFirst();
    return row?.name;
  }

  async missingImageIds(ids: number[]): Promise<number[]> {
    return this.missing('images', ids);
  }

  async missingFolderIds(ids: number[]): Promise<number[]> {
    return this.missing('folders', ids);
  }

  /** The images of these folders, by folder in the given order, then by id. */
  async imageIdsInFolders(folderIds: number[]): Promise<number[]> {
    const out: number[] = [];
    for (const folderId of new Set(folderIds)) {
      const rows = await this.db.selectFrom('images').select('id').where('folder_id', '=', folderId).orderBy('id').execute();
      for (const r of rows) out.push(r.id);
    }
    return out;
  }

  private async missing(table: 'images' | 'folders', ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const found = new Set<number>();
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db.selectFrom(table).select('id').where('id', 'in', unique.slice(i, i + CHUNK)).execute();
      for (const r of rows) found.add(r.id);
    }
    return unique.filter((id) => !found.has(id));
  }
}
