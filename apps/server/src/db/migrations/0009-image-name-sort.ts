import type { Kysely } from 'kysely';
import { addNameSortColumn } from './name-sort-column.js';

/**
 * `images.name_sort` (issue 15 item 9): the key `ordering=name` sorts by (images/name-sort.ts: case-insensitive,
 * numbers in numeric order, Chinese by pinyin), with the same two indexes the name ordering had. Its first
 * version failed on PostgreSQL when images were stored (an id compared with text while filling the column), so it
 * never applied to a PostgreSQL library with images; the fill now lives in name-sort-column.ts, shared with 0013.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addNameSortColumn(db, 'images');
  await db.schema.createIndex('images_name_sort').on('images').columns(['name_sort', 'id']).execute();
  await db.schema
    .createIndex('images_folder_name_sort')
    .on('images')
    .columns(['folder_id', 'name_sort', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('images_folder_name_sort').execute();
  await db.schema.dropIndex('images_name_sort').execute();
  await db.schema.alterTable('images').dropColumn('name_sort').execute();
}
