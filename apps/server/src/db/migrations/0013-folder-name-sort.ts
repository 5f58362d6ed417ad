import { sql, type Kysely } from 'kysely';
import { nameSortKey } from '../../images/name-sort.js';
import { isPostgres } from './id-column.js';

/** Rows per UPDATE while filling the new column. */
const CHUNK = 500;

/**
 * `folders.name_sort`: the key `GET /folders/` sorts by, the images' natural key (images/name-sort.ts:
 * case-insensitive, numbers in numeric order, Chinese by pinyin), so "Field trial 2" comes before "Field trial 10".
 * PostgreSQL compares it byte by byte ("C" collation), as SQLite does, whatever the database's locale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  await db.schema
    .alterTable('folders')
    .addColumn('name_sort', 'text', (c) =>
      pg
        ? c
            .modifyFront(sql`collate "C"`)
            .notNull()
            .defaultTo('')
        : c.notNull().defaultTo(''),
    )
    .execute();
  const rows = (await db.selectFrom('folders').select(['id', 'name']).orderBy('id').execute()) as {
    id: number;
    name: string;
  }[];
  for (let i = 0; i < rows.length; i += CHUNK) {
    // The cast: PostgreSQL reads an untyped parameter in VALUES as text, and integer = text has no operator.
    const values = sql.join(
      rows.slice(i, i + CHUNK).map((r) => sql`(cast(${r.id} as integer), ${nameSortKey(r.name)})`),
    );
    await sql`with v(id, k) as (values ${values})
      update folders set name_sort = (select k from v where v.id = folders.id) where id in (select id from v)`.execute(
      db,
    );
  }
  await db.schema.createIndex('folders_name_sort').on('folders').columns(['name_sort', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('folders_name_sort').execute();
  await db.schema.alterTable('folders').dropColumn('name_sort').execute();
}
