import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database, ImagesTable } from '../db/schema.js';
import { nameSortKey } from '../names/name-sort.js';
import { labelledCondition, likeContains, metaConditionSql, type MetaCondition } from '../db/sql-filters.js';

export type ImageRow = Selectable<ImagesTable>;
export type NewImageRow = Omit<
  ImageRow,
  'id' | 'ppd_value' | 'last_prediction' | 'last_result_id' | 'folder_sort' | 'name_sort'
> & {
  folder_sort?: string;
};

export type ImageOrderKey = 'created_time' | 'name' | 'size' | 'folder';

export interface ImageFilter {
  /** a folder id, `null` for uncategorised, undefined for every image */
  folder?: number | null | undefined;
  search?: string | undefined;
  format?: string | undefined;
  /** YYYY-MM-DD (UTC) */
  day?: string | undefined;
  hasPpd?: boolean | undefined;
  /** images with (true) or without (false) labels */
  hasLabels?: boolean | undefined;
  /** `meta.FIELD=VALUE` conditions (all must hold) */
  meta?: MetaCondition[] | undefined;
}

export interface ImageOrder {
  key: ImageOrderKey;
  desc: boolean;
}

/** The first instant of the UTC day after `day` (YYYY-MM-DD), as an ISO string. */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

type Db = Kysely<Database>;

/** Whether the filter narrows the library at all. */
function hasFilter(filter: ImageFilter): boolean {
  return Object.values(filter).some((v) => v !== undefined);
}

/** PostgreSQL advisory lock key under which uploads insert their rows one request at a time. */
const UPLOAD_ROWS_LOCK = 0x63617373;

/** The trigram index needs 3 characters; shorter terms scan the narrow name index instead. */
const TRIGRAM_MIN = 3;

/** A substring as an FTS5 phrase: the trigram tokenizer matches a phrase wherever it occurs. */
function ftsPhrase(text: string): string {
  return `"${text.toLowerCase().replace(/"/g, '""')}"`;
}

/** The column each listing order sorts by. ordering=folder: by folder name, case-insensitively; uncategorised first. */
const ORDER_COLUMN = {
  created_time: 'images.created_at',
  name: 'images.name_sort',
  size: 'images.size',
  folder: 'images.folder_sort',
} as const;

/** Every SQL query about images. One method per use. */
export class ImagesRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  private usesTrigramIndex(filter: ImageFilter): filter is ImageFilter & { search: string } {
    return this.dialect === 'sqlite' && !!filter.search && Array.from(filter.search).length >= TRIGRAM_MIN;
  }

  /**
   * `walkOrderIndex`: for a search with many matches, test membership row by row while walking the
   * ordering's index (the unary `+` keeps SQLite from driving the query by the match list), which stops
   * after one page instead of sorting every match.
   */
  private filtered(db: Db, filter: ImageFilter, walkOrderIndex = false) {
    let q = db.selectFrom('images');
    if (filter.folder === null) q = q.where('images.folder_id', 'is', null);
    else if (filter.folder !== undefined) q = q.where('images.folder_id', '=', filter.folder);
    if (filter.search) {
      const matches = sql`(select rowid from images_name_fts where images_name_fts match ${ftsPhrase(filter.search)})`;
      q = this.usesTrigramIndex(filter)
        ? q.where(walkOrderIndex ? sql<boolean>`+images.id in ${matches}` : sql<boolean>`images.id in ${matches}`)
        : q.where(sql<boolean>`images.name_lower like ${likeContains(filter.search)} escape '\\'`);
    }
    if (filter.format) q = q.where('images.format', '=', filter.format);
    if (filter.day) {
      q = q
        .where('images.created_at', '>=', `${filter.day}T00:00:00.000Z`)
        .where('images.created_at', '<', nextDay(filter.day));
    }
    if (filter.hasPpd === true) q = q.where('images.ppd_value', 'is not', null);
    if (filter.hasPpd === false) q = q.where('images.ppd_value', 'is', null);
    if (filter.hasLabels !== undefined) q = q.where(labelledCondition('images.id', filter.hasLabels));
    if (filter.meta) q = q.where(metaConditionSql('images.id', filter.meta));
    return q;
  }

  async count(filter: ImageFilter): Promise<number> {
    const { folder, format, ...rest } = filter;
    if (Object.values(rest).every((v) => v === undefined)) return this.countFromTally(folder, format);
    const onlySearch = Object.entries(filter).every(([k, v]) => k === 'search' || v === undefined);
    if (onlySearch && this.usesTrigramIndex(filter)) {
      // The trigram index alone knows how many names match (no row lookups).
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from images_name_fts where images_name_fts match ${ftsPhrase(filter.search)}`.execute(
        this.db,
      );
      return Number(rows[0]?.n ?? 0);
    }
    const row = await this.filtered(this.db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Counts by folder and format come from the trigger-kept tally (migration 0004), not the rows. */
  private async countFromTally(folder: number | null | undefined, format: string | undefined): Promise<number> {
    let q = this.db.selectFrom('image_counts').select(sql<number>`coalesce(sum(n), 0)`.as('n'));
    if (folder !== undefined) q = q.where('folder_key', '=', folder ?? 0);
    if (format !== undefined) q = q.where('format', '=', format);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * One page of images. The page's ids are found first on the narrow indexes (deferred join), so a
   * deep OFFSET skips index entries rather than whole rows.
   */
  async listPage(
    filter: ImageFilter,
    order: ImageOrder,
    limit: number,
    offset: number,
    counts?: { matching: number; total: number },
  ): Promise<ImageRow[]> {
    const dir = order.desc ? 'desc' : 'asc';
    // Walking the index visits about (offset + limit) x total / matching rows; sorting the matches costs
    // about `matching` lookups: take the cheaper.
    const walk = !!counts && counts.matching * counts.matching > (offset + limit) * counts.total;
    const ids = this.filtered(this.db, filter, walk).select('images.id');
    const pageIds = ids.orderBy(ORDER_COLUMN[order.key], dir).orderBy('images.id', dir);
    const ordered = await pageIds.limit(limit).offset(offset).execute();
    return this.rowsInOrder(ordered.map((r) => r.id));
  }

  /** The rows of these ids (a page: at most PAGE_SIZE_MAX), in the order given. */
  async rowsInOrder(ids: number[]): Promise<ImageRow[]> {
    if (ids.length === 0) return [];
    const position = new Map(ids.map((id, i) => [id, i]));
    const rows = await this.db.selectFrom('images').selectAll().where('id', 'in', ids).execute();
    return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  }

  /**
   * `group_by=FIELD`: how many images of the filter have each value of the field. Numbers and text are counted
   * apart, each on its own (field, value, image) index of image_fields without reading a row (its owner, the
   * metadata repository, writes it; here it is only read, as the filters do).
   */
  async fieldValueCounts(filter: ImageFilter, field: string): Promise<{ value: number | string; count: number }[]> {
    const scope = hasFilter(filter) ? this.filtered(this.db, filter).select('images.id') : null;
    const count = (column: 'num_value' | 'text_value') => {
      let q = this.db
        .selectFrom('image_fields')
        .select([`image_fields.${column} as v`, (eb) => eb.fn.countAll<number>().as('n')])
        .where('image_fields.field', '=', field)
        .where(`image_fields.${column}`, 'is not', null);
      if (scope) q = q.where('image_fields.image_id', 'in', scope);
      return q.groupBy(`image_fields.${column}`).execute();
    };
    const [numbers, texts] = await Promise.all([count('num_value'), count('text_value')]);
    return [
      ...numbers.map((r) => ({ value: Number(r.v), count: Number(r.n) })),
      ...texts.map((r) => ({ value: String(r.v), count: Number(r.n) })),
    ];
  }

  /**
   * `group_by=FIELD`: one page of ids from these consecutive groups of the field's values (`null`: the images
   * without the field), group by group in the order given, each group in the listing's `order`.
   */
  async idsInFieldGroups(
    filter: ImageFilter,
    field: string,
    values: (number | string | null)[],
    order: ImageOrder,
    limit: number,
    offset: number,
  ): Promise<number[]> {
    const dir = order.desc ? 'desc' : 'asc';
    const numbers = values.filter((v): v is number => typeof v === 'number');
    const texts = values.filter((v): v is string => typeof v === 'string');
    const withValue = (column: 'num_value' | 'text_value', list: (number | string)[]) =>
      sql<boolean>`images.id in (select image_id from image_fields where field = ${field} and ${sql.ref(column)} in (${sql.join(list)}))`;
    const members: RawBuilder<boolean>[] = [];
    if (numbers.length > 0) members.push(withValue('num_value', numbers));
    if (texts.length > 0) members.push(withValue('text_value', texts));
    if (values.includes(null))
      members.push(sql<boolean>`images.id not in (select image_id from image_fields where field = ${field})`);
    let q = this.filtered(this.db, filter)
      .select('images.id')
      .where(sql<boolean>`(${sql.join(members, sql` or `)})`);
    if (values.length > 1) {
      // Each image's group, by its value: the groups' order is not one SQL can compute (text in name order).
      const rank = sql.join(
        values.flatMap((v, i) =>
          v === null
            ? []
            : [sql`when ${sql.ref(typeof v === 'number' ? 'num_value' : 'text_value')} = ${v} then ${sql.lit(i)}`],
        ),
        sql` `,
      );
      const noValue = values.indexOf(null);
      q = q.orderBy(
        sql`coalesce((select case ${rank} end from image_fields where image_id = images.id and field = ${field}), ${sql.lit(noValue < 0 ? values.length : noValue)})`,
      );
    }
    const rows = await q
      .orderBy(ORDER_COLUMN[order.key], dir)
      .orderBy('images.id', dir)
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The values images are grouped by (created_at, name, folder_id or size), one per image of the filter, in
   * the listing's order: `GET /images/groups/` turns them into the runs the listing shows. One narrow column.
   */
  async groupValuesInOrder(filter: ImageFilter, order: ImageOrder): Promise<{ v: string | number | null }[]> {
    const dir = order.desc ? 'desc' : 'asc';
    const value = {
      created_time: 'images.created_at',
      name: 'images.name',
      size: 'images.size',
      folder: 'images.folder_id',
    } as const;
    return this.filtered(this.db, filter)
      .select(sql<string | number | null>`${sql.ref(value[order.key])}`.as('v'))
      .orderBy(ORDER_COLUMN[order.key], dir)
      .orderBy('images.id', dir)
      .execute();
  }

  /**
   * Images per UTC date prefix (`chars` = 4 year, 7 month, 10 day) of the filter, in the listing's date order:
   * one grouped pass instead of a value per image (the default view of `GET /images/groups/`).
   */
  async countsByDatePrefix(filter: ImageFilter, chars: 4 | 7 | 10, desc: boolean): Promise<{ k: string; n: number }[]> {
    const key = sql<string>`substr(images.created_at, 1, ${sql.lit(chars)})`;
    const rows = await this.filtered(this.db, filter)
      .select([key.as('k'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(key)
      .orderBy(key, desc ? 'desc' : 'asc')
      .execute();
    return rows.map((r) => ({ k: String(r.k), n: Number(r.n) }));
  }

  async facets(): Promise<{ all: number; uncategorized: number }> {
    const [all, uncategorized] = await Promise.all([this.count({}), this.count({ folder: null })]);
    return { all, uncategorized };
  }

  /**
   * Images per UTC day, newest first. On SQLite a recursive query hops from day to day along the
   * created_at index and counts each day's range, instead of grouping every row by a computed key.
   */
  async days(): Promise<{ day: string; count: number }[]> {
    if (this.dialect === 'sqlite') {
      const { rows } = await sql<{ day: string; count: number }>`
        with recursive d(day) as (
          select substr(min(created_at), 1, 10) from images
          union all
          select (select substr(created_at, 1, 10) from images where created_at >= date(d.day, '+1 day') order by created_at limit 1)
          from d where d.day is not null
        )
        select day, (select count(*) from images where created_at >= day and created_at < date(day, '+1 day')) as count
        from d where day is not null order by day desc`.execute(this.db);
      return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
    }
    // PostgreSQL: the same hops, newest day first (a GROUP BY reads every row: ~10x slower at 100 000 images).
    const { rows } = await sql<{ day: string; count: number }>`
      with recursive d(day) as (
        select substr(max(created_at), 1, 10) from images
        union all
        select (select substr(created_at, 1, 10) from images where created_at < d.day order by created_at desc limit 1)
        from d where d.day is not null
      )
      select day, (select count(*) from images where created_at >= day and created_at < to_char(day::date + 1, 'YYYY-MM-DD')) as count
      from d where day is not null order by day desc`.execute(this.db);
    return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
  }

  /** Images per format, most first. */
  async types(): Promise<{ format: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('image_counts')
      .select(['format', sql<number>`sum(n)`.as('count')])
      .groupBy('format')
      .execute();
    return rows
      .map((r) => ({ format: r.format, count: Number(r.count) }))
      .filter((c) => c.count > 0)
      .sort((a, b) => b.count - a.count || a.format.localeCompare(b.format));
  }

  async getById(id: number, db: Db = this.db): Promise<ImageRow | undefined> {
    return db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Inside a transaction: of these ids, those that exist, their rows locked until commit on PostgreSQL (SQLite has
   * one writer already). Label writes and image deletions take it, so neither sees the other half done.
   */
  async lockExisting(ids: number[], trx: Db): Promise<number[]> {
    const out: number[] = [];
    for (const chunk of chunks([...ids].sort((a, b) => a - b))) {
      const q = trx.selectFrom('images').select('id').where('id', 'in', chunk).orderBy('id');
      const rows = await (this.dialect === 'postgres' ? q.forUpdate() : q).execute();
      out.push(...rows.map((r) => r.id));
    }
    return out;
  }

  /**
   * Inside an upload's transaction: waits until no other upload is inserting rows (PostgreSQL advisory lock, held
   * to the end of the transaction). SQLite has one writer already.
   */
  async lockUploadRows(trx: Db): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${UPLOAD_ROWS_LOCK})`.execute(trx);
  }

  async getBySha256(sha256: string, db: Db = this.db): Promise<ImageRow | undefined> {
    return db.selectFrom('images').selectAll().where('sha256', '=', sha256).orderBy('id').limit(1).executeTakeFirst();
  }

  async getByIds(ids: number[], db: Db = this.db): Promise<ImageRow[]> {
    const out: ImageRow[] = [];
    for (const chunk of chunks(ids)) {
      out.push(...(await db.selectFrom('images').selectAll().where('id', 'in', chunk).execute()));
    }
    return out;
  }

  /** Which of these ids do not exist. */
  async missingIds(ids: number[], db: Db = this.db): Promise<number[]> {
    const found = new Set<number>();
    for (const chunk of chunks(ids)) {
      const rows = await db.selectFrom('images').select('id').where('id', 'in', chunk).execute();
      rows.forEach((r) => found.add(r.id));
    }
    return ids.filter((id) => !found.has(id));
  }

  /** The folder's image ids, ascending. */
  async idsInFolder(folderId: number, db: Db = this.db): Promise<number[]> {
    const rows = await db.selectFrom('images').select('id').where('folder_id', '=', folderId).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /** Images with one of these names in a folder (null = uncategorised). */
  async findByNamesInFolder(names: string[], folderId: number | null, db: Db = this.db): Promise<ImageRow[]> {
    const out: ImageRow[] = [];
    for (const chunk of chunks(names)) {
      let q = db.selectFrom('images').selectAll().where('name', 'in', chunk);
      q = folderId === null ? q.where('folder_id', 'is', null) : q.where('folder_id', '=', folderId);
      out.push(...(await q.execute()));
    }
    return out;
  }

  /** The sha256 values of this list that some stored image already has. */
  async existingSha256(hashes: string[], db: Db = this.db): Promise<Set<string>> {
    return new Set((await this.imageIdsBySha256(hashes, db)).keys());
  }

  /** For each of these hashes that is stored, the ids of the images holding those bytes. */
  async imageIdsBySha256(hashes: string[], db: Db = this.db): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    for (const chunk of chunks(hashes)) {
      const rows = await db.selectFrom('images').select(['sha256', 'id']).where('sha256', 'in', chunk).execute();
      for (const r of rows) found.set(r.sha256, [...(found.get(r.sha256) ?? []), r.id]);
    }
    return found;
  }

  async insert(row: NewImageRow, db: Db = this.db): Promise<ImageRow> {
    return db
      .insertInto('images')
      .values({ ...row, name_sort: nameSortKey(row.name) })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Replaces an image's bytes in place (same id, folder and name). Its PPD columns start over through the
   * results' owner (removeResultsOfImages, called first in the same transaction), their only writer.
   */
  async replaceContent(
    id: number,
    content: Pick<ImageRow, 'size' | 'format' | 'width' | 'height' | 'sha256' | 'blob_key' | 'thumb_key'>,
    db: Db = this.db,
  ): Promise<ImageRow> {
    return db.updateTable('images').set(content).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Renames an image (the search index follows by trigger; the name ordering's key is rewritten here). */
  async rename(id: number, name: string, db: Db = this.db): Promise<ImageRow> {
    return db
      .updateTable('images')
      .set({ name, name_lower: name.toLowerCase(), name_sort: nameSortKey(name) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Id and name of every image in a folder (null: uncategorised; undefined: the whole library). */
  async namesIn(folderId: number | null | undefined, db: Db = this.db): Promise<{ id: number; name: string }[]> {
    let q = db.selectFrom('images').select(['id', 'name']);
    if (folderId === null) q = q.where('folder_id', 'is', null);
    else if (folderId !== undefined) q = q.where('folder_id', '=', folderId);
    return q.orderBy('id').execute();
  }

  /** `folderSort` is the target folder's name_key ('' for uncategorised). */
  async moveToFolder(ids: number[], folderId: number | null, folderSort: string, db: Db = this.db): Promise<number> {
    let moved = 0;
    for (const chunk of chunks(ids)) {
      const res = await db
        .updateTable('images')
        .set({ folder_id: folderId, folder_sort: folderSort })
        .where('id', 'in', chunk)
        .executeTakeFirst();
      moved += Number(res.numUpdatedRows);
    }
    return moved;
  }

  async moveFolderContents(
    fromFolderId: number,
    toFolderId: number | null,
    toFolderSort: string,
    db: Db = this.db,
  ): Promise<void> {
    await db
      .updateTable('images')
      .set({ folder_id: toFolderId, folder_sort: toFolderSort })
      .where('folder_id', '=', fromFolderId)
      .execute();
  }

  /** After a folder rename: its images sort under the new name. */
  async setFolderSort(folderId: number, folderSort: string, db: Db = this.db): Promise<void> {
    await db.updateTable('images').set({ folder_sort: folderSort }).where('folder_id', '=', folderId).execute();
  }

  async deleteByIds(ids: number[], db: Db = this.db): Promise<void> {
    for (const chunk of chunks(ids)) await db.deleteFrom('images').where('id', 'in', chunk).execute();
  }

  /**
   * Of these images (just deleted or overwritten), the storage keys no remaining image refers to.
   * Keys are content-addressed, so two rows with the same bytes share them (check_duplicate='0').
   */
  async orphanedKeys(
    removed: Pick<ImageRow, 'sha256' | 'blob_key' | 'thumb_key'>[],
    db: Db = this.db,
  ): Promise<string[]> {
    const stillUsed = await this.existingSha256([...new Set(removed.map((r) => r.sha256))], db);
    const keys = removed.filter((r) => !stillUsed.has(r.sha256)).flatMap((r) => [r.blob_key, r.thumb_key]);
    return [...new Set(keys)];
  }

  // ---- reads of the storage check (storage-check/) ----

  /** A page of images in id order with what their stored files must be: the original's sha256 and size, the thumbnail. */
  async storedFilesPage(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; name: string; sha256: string; size: number; blob_key: string; thumb_key: string }[]> {
    return this.db
      .selectFrom('images')
      .select(['id', 'name', 'sha256', 'size', 'blob_key', 'thumb_key'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The storage keys (original and thumbnail) of the images holding these hashes (by the sha256 index). */
  async storedKeysOfSha256(hashes: string[], db: Db = this.db): Promise<Set<string>> {
    const keys = new Set<string>();
    for (const chunk of chunks(hashes)) {
      const rows = await db
        .selectFrom('images')
        .select(['blob_key', 'thumb_key'])
        .where('sha256', 'in', chunk)
        .execute();
      for (const r of rows) {
        keys.add(r.blob_key);
        keys.add(r.thumb_key);
      }
    }
    return keys;
  }
}

/** SQL parameter lists stay well under the drivers' limits. */
export function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
