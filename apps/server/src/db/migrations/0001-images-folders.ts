import { sql, type Kysely } from 'kysely';
import { isPostgres, withIdColumn } from './id-column.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pgMode = await isPostgres(db);
  await withIdColumn(db.schema.createTable('folders'), pgMode)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withIdColumn(db.schema.createTable('images'), pgMode)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
    // The folder's name_key ('' when uncategorised), kept by the images/folders code: ordering=folder
    // walks an index instead of sorting 100 000 rows by a joined column.
    .addColumn('folder_sort', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('thumb_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ppd_value', 'double precision')
    .addColumn('last_prediction', 'text')
    .addColumn('last_result_id', 'integer')
    .execute();

  // Indexes for the listing queries (every ordering, scoped by folder or not) and duplicate checks.
  const idx = (name: string, cols: string[]) => db.schema.createIndex(name).on('images').columns(cols).execute();
  await idx('images_created', ['created_at', 'id']);
  await idx('images_name', ['name', 'id']);
  await idx('images_size', ['size', 'id']);
  await idx('images_folder_created', ['folder_id', 'created_at', 'id']);
  await idx('images_folder_name', ['folder_id', 'name', 'id']);
  await idx('images_folder_size', ['folder_id', 'size', 'id']);
  await idx('images_sha256', ['sha256']);
  // Substring search scans this narrow index when the trigram index cannot help (terms under 3 characters).
  await idx('images_name_lower', ['name_lower']);
  await idx('images_format', ['format', 'created_at']);
  await idx('images_folder_sort', ['folder_sort']);
  await idx('images_ppd', ['ppd_value']);

  if (!pgMode) {
    // Substring search over 100 000 names: a trigram full-text index (FTS5) answers `search=` for
    // terms of 3+ characters without scanning. Contentless; triggers keep it in step with images.
    await sql`create virtual table images_name_fts using fts5(name_lower, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(
      db,
    );
    await sql`create trigger images_name_fts_insert after insert on images begin
      insert into images_name_fts (rowid, name_lower) values (new.id, new.name_lower); end`.execute(db);
    await sql`create trigger images_name_fts_delete after delete on images begin
      delete from images_name_fts where rowid = old.id; end`.execute(db);
    await sql`create trigger images_name_fts_update after update of name_lower on images begin
      delete from images_name_fts where rowid = old.id;
      insert into images_name_fts (rowid, name_lower) values (new.id, new.name_lower); end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(await isPostgres(db))) await sql`drop table if exists images_name_fts`.execute(db);
  await db.schema.dropTable('images').execute();
  await db.schema.dropTable('folders').execute();
}
