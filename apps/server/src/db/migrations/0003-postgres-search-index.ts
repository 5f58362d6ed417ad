import { sql, type Kysely } from 'kysely';
import { isPostgres } from './id-column.js';

/**
 * PostgreSQL's counterpart of SQLite's FTS5 trigram table (0001): name searches are `name_lower LIKE
 * '%term%'`, which without an index scans every row (100 000 images: tens of ms per search and count).
 * pg_trgm's GIN index serves those LIKE patterns. pg_trgm is a trusted extension (PostgreSQL 13+), so the
 * database owner may create it; where it is not available the searches still work, by scanning.
 * Nothing to do on SQLite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(await isPostgres(db))) return;
  await sql`
    do $$ begin
      create extension if not exists pg_trgm;
    exception when others then
      raise notice 'pg_trgm is not available (%): name searches scan the table', sqlerrm;
    end $$`.execute(db);
  await sql`
    do $$ begin
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists images_name_trgm on images using gin (name_lower gin_trgm_ops);
        create index if not exists results_image_name_trgm on results using gin (image_name_lower gin_trgm_ops);
      end if;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(await isPostgres(db))) return;
  await sql`drop index if exists results_image_name_trgm`.execute(db);
  await sql`drop index if exists images_name_trgm`.execute(db);
}
