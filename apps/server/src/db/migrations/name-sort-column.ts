import { sql, type Kysely } from 'kysely';
import { nameSortKey } from '../../names/name-sort.js';
import { isPostgres } from './id-column.js';

/** Rows per UPDATE while filling the column. */
const CHUNK = 500;

/**
 * Adds `<table>.name_sort`, the natural sort key of the row's `name` (images/name-sort.ts), and fills it for the
 * rows already there. PostgreSQL compares it byte by byte ("C" collation), as SQLite does, whatever the
 * database's locale. Used by migrations 0009 (images) and 0013 (folders).
 */
export async function addNameSortColumn(db: Kysely<any>, table: 'images' | 'folders'): Promise<void> {
  const pg = await isPostgres(db);
  await db.schema
    .alterTable(table)
    .addColumn('name_sort', 'text', (c) =>
      pg
        ? c
            .modifyFront(sql`collate "C"`)
            .notNull()
            .defaultTo('')
        : c.notNull().defaultTo(''),
    )
    .execute();
  const rows = (await db.selectFrom(table).select(['id', 'name']).orderBy('id').execute()) as {
    id: number;
    name: string;
  }[];
  for (let i = 0; i < rows.length; i += CHUNK) {
    // The cast: PostgreSQL reads an untyped parameter in VALUES as text, and integer = text has no operator.
    const values = sql.join(
      rows.slice(i, i + CHUNK).map((r) => sql`(cast(${r.id} as integer), ${nameSortKey(r.name)})`),
    );
    await sql`with v(id, k) as (values ${values})
      update ${sql.table(table)} set name_sort = (select k from v where v.id = ${sql.ref(`${table}.id`)})
      where id in (select id from v)`.execute(db);
  }
}
