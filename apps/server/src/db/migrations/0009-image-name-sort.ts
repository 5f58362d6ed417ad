import { sql, type Kysely } from 'kysely';
import { nameSortKey } from '../../images/name-sort.js';
import { isPostgres } from './id-column.js';

/** Rows per UPDATE while filling the new column. */
const CHUNK = 500;

/**
 * `images.name_sort` (issue 15 item 9): the key `ordering=name` sorts by (images/name-sort.ts: case-insensitive,
 * numbers in numeric order, Chinese by pinyin), with the same two indexes the name ordering had. PostgreSQL
 * compares it byte by byte ("C" collation), as SQLite does, whatever the database's locale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  await db.schema
    .alterTable('images')
    .addColumn('name_sort', 'text', (c) =>
      pg
        ? c
            .modifyFront(sql`collate "C"`)
            .notNull()
            .defaultTo('')
        : c.notNull().defaultTo(''),
    )
    .execute();
  const rows = (await db.selectFrom('images').select(['id', 'name']).orderBy('id').execute()) as {
    id: number;
    name: string;
  }[];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = sql.join(rows.slice(i, i + CHUNK).map((r) => sql`(${r.id}, ${nameSortKey(r.name)})`));
    await sql`with v(id, k) as (values ${values})
      update images set name_sort = (select k from v where v.id = images.id) where id in (select id from v)`.execute(
      db,
    );
  }
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
