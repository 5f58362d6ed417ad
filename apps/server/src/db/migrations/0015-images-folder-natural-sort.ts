import { sql, type Kysely } from 'kysely';
import { isPostgres } from './id-column.js';

/**
 * `images.folder_sort` (what `ordering=folder` walks) becomes the folder's natural key, `folders.name_sort`
 * (migration 0013), instead of its lower-cased name, so images ordered by folder follow the folder list:
 * "Field trial 2" before "Field trial 10". PostgreSQL compares the key byte by byte ("C" collation), as SQLite
 * does and as folders.name_sort is compared.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (await isPostgres(db)) await sql`alter table images alter column folder_sort type text collate "C"`.execute(db);
  await sql`update images set folder_sort = coalesce((select name_sort from folders where folders.id = images.folder_id), '')
    where folder_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update images set folder_sort = coalesce((select name_key from folders where folders.id = images.folder_id), '')
    where folder_id is not null`.execute(db);
}
