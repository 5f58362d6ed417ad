import type { Kysely } from 'kysely';
import { addNameSortColumn } from './name-sort-column.js';

/**
 * `folders.name_sort`: the key `GET /folders/` sorts by, the images' natural key (images/name-sort.ts:
 * case-insensitive, numbers in numeric order, Chinese by pinyin), so "Field trial 2" comes before "Field trial 10".
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addNameSortColumn(db, 'folders');
  await db.schema.createIndex('folders_name_sort').on('folders').columns(['name_sort', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('folders_name_sort').execute();
  await db.schema.alterTable('folders').dropColumn('name_sort').execute();
}
