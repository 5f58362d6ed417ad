import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FoldersTable } from '../db/schema.js';
import { nameSortKey } from '../names/name-sort.js';

/** Ids per statement (SQLite's variable limit). */
const IDS_PER_QUERY = 500;

export type FolderRow = Selectable<FoldersTable> & { image_count: number };

type Db = Kysely<Database>;

/** The key that makes folder names unique case-insensitively (Unicode-aware lower case). */
export function folderNameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Every SQL query about folders. */
export class FoldersRepository {
  constructor(private readonly db: Db) {}

  private withCount(db: Db) {
    return db
      .selectFrom('folders')
      .selectAll('folders')
      .select(
        sql<number>`(select coalesce(sum(n), 0) from image_counts where image_counts.folder_key = folders.id)`.as(
          'image_count',
        ),
      );
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('folders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Ordered by name as people sort names (name_sort: "Field trial 2" before "Field trial 10"), then id. */
  async listPage(limit: number, offset: number): Promise<FolderRow[]> {
    const rows = await this.withCount(this.db).orderBy('name_sort').orderBy('id').limit(limit).offset(offset).execute();
    return rows.map((r) => ({ ...r, image_count: Number(r.image_count) }));
  }

  async getById(id: number, db: Db = this.db): Promise<FolderRow | undefined> {
    const row = await this.withCount(db).where('id', '=', id).executeTakeFirst();
    return row && { ...row, image_count: Number(row.image_count) };
  }

  /** Which of these ids are no folder. */
  async missingIds(ids: number[], db: Db = this.db): Promise<number[]> {
    const found = new Set<number>();
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const rows = await db
        .selectFrom('folders')
        .select('id')
        .where('id', 'in', ids.slice(i, i + IDS_PER_QUERY))
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return ids.filter((id) => !found.has(id));
  }

  async exists(id: number, db: Db = this.db): Promise<boolean> {
    return (await db.selectFrom('folders').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /**
   * The folder's natural sort key (name_sort), which its images carry as `folder_sort` for `ordering=folder`;
   * undefined when there is no such folder.
   */
  async sortKeyOf(id: number, db: Db = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('folders').select('name_sort').where('id', '=', id).executeTakeFirst();
    return row?.name_sort;
  }

  async findIdByNameKey(nameKey: string, db: Db = this.db): Promise<number | undefined> {
    const row = await db.selectFrom('folders').select('id').where('name_key', '=', nameKey).executeTakeFirst();
    return row?.id;
  }

  async insert(name: string, description: string, createdAt: string, db: Db = this.db): Promise<number> {
    const row = await db
      .insertInto('folders')
      .values({ name, name_key: folderNameKey(name), name_sort: nameSortKey(name), description, created_at: createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, name: string, description: string, db: Db = this.db): Promise<void> {
    await db
      .updateTable('folders')
      .set({ name, name_key: folderNameKey(name), name_sort: nameSortKey(name), description })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('folders').where('id', '=', id).execute();
  }
}
