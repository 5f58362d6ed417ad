import type { Kysely } from 'kysely';
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
  // Substring search scans this narrow index instead of the table.
  await idx('images_name_lower', ['name_lower']);
  await idx('images_format', ['format', 'created_at']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('images').execute();
  await db.schema.dropTable('folders').execute();
}
