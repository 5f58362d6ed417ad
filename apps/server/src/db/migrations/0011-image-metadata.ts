import { sql, type Kysely } from 'kysely';
import { isPostgres } from './id-column.js';

/**
 * Sample metadata (issue 17): one row per image and field. A number is kept in `num_value`, a date or text in
 * `text_value` (the other is null), so `meta.FIELD=VALUE` filters and the per-genotype summary read an index
 * on (field, value, image_id) instead of parsing a JSON column per image. The Image's `metadata` object is
 * built from the same rows. A trigger removes an image's rows with the image, whatever deletes it.
 * (In SQLite the table has no rowid: cli/migrate-sqlite-to-postgres.ts pages it by its primary key.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = await isPostgres(db);
  await sql`create table image_fields (
      image_id integer not null,
      field text not null,
      num_value ${sql.raw(pg ? 'double precision' : 'real')},
      text_value text,
      primary key (image_id, field)
    )${sql.raw(pg ? '' : ' without rowid')}`.execute(db);
  await sql`create index image_fields_text on image_fields (field, text_value, image_id)`.execute(db);
  await sql`create index image_fields_num on image_fields (field, num_value, image_id)`.execute(db);
  // The group summary looks up every scored result's value by (image_id, field): SQLite keeps the rows in their
  // primary key (WITHOUT ROWID), PostgreSQL gets an index holding the values; either way one b-tree per lookup
  // instead of the key and then the row (half the time at 100 000 results).
  if (pg)
    await sql`create index image_fields_values on image_fields (image_id, field, num_value, text_value)`.execute(db);
  // The group summary reads every scored result of a task: its own narrow index carries all it needs (the image,
  // the reviewed PPD, the specimens still counted), so 100 000 results are read without their wide rows
  // (specimens JSON). `counted_specimens` = the length of sub_ppd_values, written with it by the results' owner.
  await sql`alter table results add column counted_specimens integer not null default 0`.execute(db);
  await sql`update results set counted_specimens = ${pg ? sql`json_array_length(sub_ppd_values::json)` : sql`json_array_length(sub_ppd_values)`}`.execute(
    db,
  );
  await sql`create index results_groups on results (task_id, image_id, ppd_value, counted_specimens)`.execute(db);
  if (pg) {
    await sql`create function image_fields_drop() returns trigger language plpgsql as $$
      begin
        delete from image_fields where image_id in (select id from removed);
        return null;
      end $$`.execute(db);
    await sql`create trigger image_fields_delete after delete on images
      referencing old table as removed for each statement execute function image_fields_drop()`.execute(db);
    return;
  }
  await sql`create trigger image_fields_delete after delete on images begin
      delete from image_fields where image_id = old.id;
    end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists results_groups`.execute(db);
  await sql`alter table results drop column counted_specimens`.execute(db);
  if (await isPostgres(db)) {
    await sql`drop trigger if exists image_fields_delete on images`.execute(db);
    await sql`drop function if exists image_fields_drop()`.execute(db);
  } else {
    await sql`drop trigger if exists image_fields_delete`.execute(db);
  }
  await sql`drop table if exists image_fields`.execute(db);
}
