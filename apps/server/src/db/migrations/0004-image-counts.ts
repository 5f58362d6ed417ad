import { sql, type Kysely } from 'kysely';
import { isPostgres } from './id-column.js';

/**
 * How many images each folder holds per format, kept by triggers in the same transaction as every
 * insert, delete, move and re-encode of an image row. The listing's facets (all, uncategorised), the
 * types endpoint and folder image counts read these few dozen rows instead of counting up to 100 000
 * index entries on every request (PostgreSQL has no cheap count(*): several ms per count at 100 000).
 * `folder_key` is the folder id, 0 for uncategorised. Triggers, not application code, keep it true, so
 * no write path (uploads, moves, folder deletes, the SQLite -> PostgreSQL migration) can forget it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table image_counts (
      folder_key integer not null,
      format text not null,
      n integer not null,
      primary key (folder_key, format)
    )`.execute(db);
  await sql`insert into image_counts (folder_key, format, n)
      select coalesce(folder_id, 0), format, count(*) from images group by coalesce(folder_id, 0), format`.execute(db);

  if (await isPostgres(db)) {
    // Statement-level triggers with transition tables: one statement moving 10 000 images applies its
    // net change per key once, and keys are updated in key order, so concurrent writers cannot deadlock
    // on these rows.
    await sql`create function image_counts_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into image_counts as c (folder_key, format, n)
            select coalesce(folder_id, 0), format, count(*) from added
            group by 1, 2 order by 1, 2
            on conflict (folder_key, format) do update set n = c.n + excluded.n;
        elsif tg_op = 'DELETE' then
          update image_counts c set n = c.n - d.k
            from (select coalesce(folder_id, 0) as f, format, count(*) as k from removed group by 1, 2 order by 1, 2) d
            where c.folder_key = d.f and c.format = d.format;
        else
          insert into image_counts as c (folder_key, format, n)
            select f, format, sum(k) from (
              select coalesce(folder_id, 0) as f, format, -1 as k from removed
              union all
              select coalesce(folder_id, 0), format, 1 from added
            ) moves group by 1, 2 having sum(k) <> 0 order by 1, 2
            on conflict (folder_key, format) do update set n = c.n + excluded.n;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger image_counts_insert after insert on images
      referencing new table as added for each statement execute function image_counts_apply()`.execute(db);
    await sql`create trigger image_counts_delete after delete on images
      referencing old table as removed for each statement execute function image_counts_apply()`.execute(db);
    await sql`create trigger image_counts_update after update on images
      referencing old table as removed new table as added for each statement execute function image_counts_apply()`.execute(
      db,
    );
    return;
  }
  // SQLite has one writer at a time: plain row triggers.
  await sql`create trigger image_counts_insert after insert on images begin
      insert or ignore into image_counts (folder_key, format, n) values (coalesce(new.folder_id, 0), new.format, 0);
      update image_counts set n = n + 1 where folder_key = coalesce(new.folder_id, 0) and format = new.format;
    end`.execute(db);
  await sql`create trigger image_counts_delete after delete on images begin
      update image_counts set n = n - 1 where folder_key = coalesce(old.folder_id, 0) and format = old.format;
    end`.execute(db);
  await sql`create trigger image_counts_update after update of folder_id, format on images
      when coalesce(old.folder_id, 0) <> coalesce(new.folder_id, 0) or old.format <> new.format begin
      update image_counts set n = n - 1 where folder_key = coalesce(old.folder_id, 0) and format = old.format;
      insert or ignore into image_counts (folder_key, format, n) values (coalesce(new.folder_id, 0), new.format, 0);
      update image_counts set n = n + 1 where folder_key = coalesce(new.folder_id, 0) and format = new.format;
    end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (await isPostgres(db)) {
    await sql`drop trigger if exists image_counts_insert on images`.execute(db);
    await sql`drop trigger if exists image_counts_delete on images`.execute(db);
    await sql`drop trigger if exists image_counts_update on images`.execute(db);
    await sql`drop function if exists image_counts_apply()`.execute(db);
  } else {
    await sql`drop trigger if exists image_counts_insert`.execute(db);
    await sql`drop trigger if exists image_counts_delete`.execute(db);
    await sql`drop trigger if exists image_counts_update`.execute(db);
  }
  await sql`drop table if exists image_counts`.execute(db);
}
