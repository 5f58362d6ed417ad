import { HISTOGRAM_BINS, PPD_MILD_FROM, PPD_SEVERE_FROM, type HistogramKey } from '@cassavascope/contract';
import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ResultReviewsTable, ResultsTable } from '../db/schema.js';
import type { SqliteReaders } from '../db/sqlite-readers.js';
import { likeContains, metaConditionSql, type MetaCondition } from '../db/sql-filters.js';
import { resultFileKeys } from './result-files.js';
import type { StoredSpecimen } from './stored-specimens.js';

type Db = Kysely<Database>;

/** An image's outcome about to be stored: a scored image, a cuts-only image, or a failed one (error_code set). */
export interface ResultRecord {
  taskId: number;
  imageId: number;
  imageName: string;
  ppdValue: number | null;
  subPpdValues: number[];
  prediction: string | null;
  confidence: number | null;
  ossKey: string | null;
  visKeys: Record<string, string>;
  /** every specimen, in index order; [] for a failed image */
  specimens: StoredSpecimen[];
  needsReview: boolean;
  errorCode: string | null;
  errorMessage: string | null;
  processingTime: number | null;
}

/** The values of a result a review change rewrites (the engine's own values are never among them). */
export interface ReviewedValues {
  specimens: StoredSpecimen[];
  ppdValue: number | null;
  subPpdValues: number[];
  prediction: string | null;
  needsReview: boolean;
}

/** One history row about to be written. */
export type NewReviewRow = Omit<Selectable<ResultReviewsTable>, 'id'>;

export type ResultRow = Selectable<ResultsTable>;

/** Ids per statement (SQLite's variable limit). */
const CHUNK = 500;

export type ResultOrderKey = 'ppd_value' | 'imageName' | 'created_time';

export interface ResultFilter {
  taskId?: number | undefined;
  /** results of any of these tasks (the group summary's picked tasks) */
  taskIds?: number[] | undefined;
  /**
   * one result per image: its newest scored result (of the task filters' tasks when there are any), so a photo
   * scored by several tasks is one observation; failed results drop out. The other filters apply to that result.
   */
  newestPerImage?: boolean | undefined;
  imageId?: number | undefined;
  search?: string | undefined;
  severity?: 'healthy' | 'mild' | 'severe' | undefined;
  /** results with (true) or without (false) a specimen that needs review */
  needsReview?: boolean | undefined;
  /** results a reviewer changed (true) or not (false) */
  reviewed?: boolean | undefined;
  /** `meta.FIELD=VALUE` conditions on the result's image (all must hold) */
  meta?: MetaCondition[] | undefined;
}

/** One group of `groupSums`: its key values (number or text per field, null when the image lacks the field) and sums. */
export interface GroupSums {
  key: (number | string | null)[];
  images: number;
  specimens: number;
  sum: number;
  sumSquares: number;
  healthy: number;
  mild: number;
  severe: number;
}

/** A row of the grouped pass, as the driver answers it (PostgreSQL: two key columns per field, counts as text). */
type GroupRow = Record<string, unknown>;

/** A row's key values, one per field (PostgreSQL answers a number column and a text column per field). */
function keyOf(r: GroupRow, fields: string[], postgres: boolean): (number | string | null)[] {
  return fields.map((_f, i) => {
    if (!postgres) return (r[`k${i}`] as number | string | null) ?? null;
    return r[`k${2 * i}`] !== null ? Number(r[`k${2 * i}`]) : ((r[`k${2 * i + 1}`] as string | null) ?? null);
  });
}

function toGroupSums(r: GroupRow, fields: string[], postgres: boolean): GroupSums {
  return {
    key: keyOf(r, fields, postgres),
    images: Number(r.images),
    specimens: Number(r.specimens ?? 0),
    sum: Number(r.total),
    sumSquares: Number(r.squares),
    healthy: Number(r.healthy),
    mild: Number(r.mild),
    severe: Number(r.severe),
  };
}

/** `results`: one CSV row per result; `specimens`: one per specimen. */
export type ExportFormat = 'results' | 'specimens';

export interface ResultOrder {
  key: ResultOrderKey;
  desc: boolean;
}

/** Band limits of api.md (half-open), from the contract: healthy [0,4), mild [4,7), severe [7, ...). */
const SEVERITY_RANGES = {
  healthy: [null, PPD_MILD_FROM],
  mild: [PPD_MILD_FROM, PPD_SEVERE_FROM],
  severe: [PPD_SEVERE_FROM, null],
} as const;

/**
 * The condition "this result is its image's newest scored result" (of the filter's tasks, when it names any).
 * Over every task that is the image's own pointer to it (`images.last_result_id`, kept by this repository's
 * writers): one primary-key lookup a result. Among picked tasks, the image's results walked newest first on the
 * `results_image (image_id, id)` index to the first with a PPD (a row read each: about twice the pointer's cost,
 * measured at 100 000 results). Within one task each image has one result anyway.
 */
function newestOfImage(filter: ResultFilter) {
  const tasks = filter.taskId !== undefined ? [filter.taskId] : filter.taskIds;
  if (tasks === undefined || tasks.length === 0)
    return sql<boolean>`results.id = (select images.last_result_id from images where images.id = results.image_id)`;
  if (tasks.length === 1) return sql<boolean>`results.ppd_value is not null`;
  return sql<boolean>`results.id = (select newest.id from results newest where newest.image_id = results.image_id and newest.ppd_value is not null and newest.task_id in (${sql.join(tasks)}) order by newest.id desc limit 1)`;
}

/** Rows per page of the CSV export (keyset paging on id keeps memory flat and the database free between pages). */
export const EXPORT_PAGE = 2000;

/**
 * The one owner of result rows (`results`, their review history `result_reviews`) and of an image's
 * denormalised newest result (`images.ppd_value`, `last_prediction`, `last_result_id`): nothing else reads
 * or writes them. Writers take the caller's transaction (`new ResultsRepository(trx)`), so a result and the
 * task counters it moves commit together.
 */
export class ResultsRepository {
  constructor(
    private readonly db: Db,
    /** SQLite's reader threads, for the heavy reads that can leave the event loop (the group summary) */
    private readonly readers?: SqliteReaders,
  ) {}

  private filtered(filter: ResultFilter) {
    let q = this.db.selectFrom('results');
    if (filter.taskId !== undefined) q = q.where('results.task_id', '=', filter.taskId);
    if (filter.taskIds !== undefined)
      q = q.where('results.task_id', 'in', filter.taskIds.length ? filter.taskIds : [0]);
    if (filter.newestPerImage) q = q.where(newestOfImage(filter));
    if (filter.imageId !== undefined) q = q.where('results.image_id', '=', filter.imageId);
    if (filter.search)
      q = q.where(sql<boolean>`results.image_name_lower like ${likeContains(filter.search)} escape '\\'`);
    if (filter.severity) {
      const [from, to] = SEVERITY_RANGES[filter.severity];
      // A failed row has no PPD, so it never matches a severity.
      q = q.where('results.ppd_value', 'is not', null);
      if (from !== null) q = q.where('results.ppd_value', '>=', from);
      if (to !== null) q = q.where('results.ppd_value', '<', to);
    }
    if (filter.needsReview !== undefined) q = q.where('results.needs_review', '=', filter.needsReview ? 1 : 0);
    if (filter.reviewed !== undefined) q = q.where('results.reviewed', '=', filter.reviewed ? 1 : 0);
    if (filter.meta) q = q.where(metaConditionSql('results.image_id', filter.meta));
    return q;
  }

  /**
   * Scored results of the filter grouped by the image's value of each field (one or two), in one grouped pass:
   * per group the count, the specimens not excluded, sum and sum of squares of the reviewed PPD and the bands.
   * Each field is a left join on image_fields' primary key, so images without it form the null group.
   * On SQLite with reader threads the pass is cut into as many parts as there are threads (results by id
   * modulo the part count), run at once off the event loop, and the parts' sums added up: every figure here is
   * a sum, so the parts add exactly. Each part reads its own snapshot; a write that commits between two parts'
   * starts shows in one of them only, as it would in the next refresh anyway.
   */
  async groupSums(filter: ResultFilter, fields: string[]): Promise<GroupSums[]> {
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    if (postgres || !this.readers) {
      const rows = (await this.groupQuery(filter, fields, postgres).execute()) as GroupRow[];
      return rows.map((r) => toGroupSums(r, fields, postgres));
    }
    const readers = this.readers;
    const parts = readers.threads;
    const partRows = await Promise.all(
      Array.from({ length: parts }, (_p, part) => {
        const q = this.groupQuery(filter, fields, false);
        const compiled = (parts > 1 ? q.where(sql<boolean>`results.id % ${parts} = ${part}`) : q).compile();
        return readers.all<GroupRow>(compiled.sql, compiled.parameters);
      }),
    );
    const merged = new Map<string, GroupSums>();
    for (const row of partRows.flat()) {
      const sums = toGroupSums(row, fields, false);
      // A number and a text never share a key (1 is not "1"): JSON keeps the difference.
      const id = JSON.stringify(sums.key);
      const seen = merged.get(id);
      if (!seen) {
        merged.set(id, sums);
        continue;
      }
      seen.images += sums.images;
      seen.specimens += sums.specimens;
      seen.sum += sums.sum;
      seen.sumSquares += sums.sumSquares;
      seen.healthy += sums.healthy;
      seen.mild += sums.mild;
      seen.severe += sums.severe;
    }
    return [...merged.values()];
  }

  /**
   * The reviewed PPD of every scored result of the filter with its key (as `groupSums` groups them), for a chart of
   * each result; null when there are more than `limit` (the chart then shows the groups' figures only).
   */
  async groupValues(
    filter: ResultFilter,
    fields: string[],
    limit: number,
  ): Promise<{ key: (number | string | null)[]; value: number }[] | null> {
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    const { q, keys } = this.groupJoins(filter, fields, postgres);
    const rows = (await q
      .select([...keys.map((k, i) => sql`${k}`.as(`k${i}`)), sql`results.ppd_value`.as('value')])
      .limit(limit + 1)
      .execute()) as GroupRow[];
    if (rows.length > limit) return null;
    return rows.map((r) => ({ key: keyOf(r, fields, postgres), value: Number(r.value) }));
  }

  /** The scored results of the filter joined to each field's value, and the key expression of each field. */
  private groupJoins(filter: ResultFilter, fields: string[], postgres: boolean) {
    // The (task, image, ppd, counted) index covers this scan (the wide result rows are never read), in image
    // order, so the lookups of the fields walk their primary key in order too.
    const scored = this.filtered(filter)
      .where('results.ppd_value', 'is not', null)
      .leftJoin('image_fields as f0', (join) =>
        join.onRef('f0.image_id', '=', 'results.image_id').on('f0.field', '=', fields[0] ?? ''),
      );
    // The second field's join only when there is one: each join is a lookup per result.
    const q =
      fields.length > 1
        ? scored.leftJoin('image_fields as f1', (join) =>
            join.onRef('f1.image_id', '=', 'results.image_id').on('f1.field', '=', fields[1]!),
          )
        : scored;
    // One key per field. SQLite: coalesce(number, text) keeps each value's type (a number and a text never compare
    // equal, and a text never looks like a number: see typeMetadataValue), and sorting one column instead of two
    // is about a fifth faster at 100 000 results. PostgreSQL (hash aggregation) groups by both columns.
    const aliases = fields.map((_f, i) => `f${i}`);
    const keys = postgres
      ? aliases.flatMap((a) => [sql.ref(`${a}.num_value`), sql.ref(`${a}.text_value`)])
      : aliases.map((a) => sql`coalesce(${sql.ref(`${a}.num_value`)}, ${sql.ref(`${a}.text_value`)})`);
    return { q, keys };
  }

  /** The grouped pass of `groupSums` over the filter (or over the part of it the caller narrows it to). */
  private groupQuery(filter: ResultFilter, fields: string[], postgres: boolean) {
    const { q, keys } = this.groupJoins(filter, fields, postgres);
    const band = (from: number | null, to: number | null) => {
      const lo = from === null ? sql`1 = 1` : sql`results.ppd_value >= ${from}`;
      const hi = to === null ? sql`1 = 1` : sql`results.ppd_value < ${to}`;
      return sql`sum(case when ${lo} and ${hi} then 1 else 0 end)`;
    };
    return q
      .select([
        ...keys.map((k, i) => sql`${k}`.as(`k${i}`)),
        sql`count(*)`.as('images'),
        sql`sum(results.counted_specimens)`.as('specimens'),
        sql`sum(results.ppd_value)`.as('total'),
        sql`sum(results.ppd_value * results.ppd_value)`.as('squares'),
        band(...SEVERITY_RANGES.healthy).as('healthy'),
        band(...SEVERITY_RANGES.mild).as('mild'),
        band(...SEVERITY_RANGES.severe).as('severe'),
      ])
      .groupBy(keys);
  }

  async count(filter: ResultFilter): Promise<number> {
    const row = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listPage(filter: ResultFilter, order: ResultOrder, limit: number, offset: number) {
    const dir = order.desc ? 'desc' : 'asc';
    let q = this.filtered(filter)
      .leftJoin('images', 'images.id', 'results.image_id')
      .selectAll('results')
      .select(['images.blob_key', 'images.thumb_key']);
    if (order.key === 'ppd_value') {
      // Rows without a PPD (failed) come last either way, in both databases.
      q = q.orderBy(sql`case when results.ppd_value is null then 1 else 0 end`).orderBy('results.ppd_value', dir);
    } else if (order.key === 'imageName') {
      q = q.orderBy('results.image_name_lower', dir);
    }
    // Ids grow with creation time: created_time ordering and every tie-break use them.
    return q.orderBy('results.id', dir).limit(limit).offset(offset).execute();
  }

  async get(id: number) {
    return this.db
      .selectFrom('results')
      .leftJoin('images', 'images.id', 'results.image_id')
      .selectAll('results')
      .select(['images.blob_key', 'images.thumb_key'])
      .where('results.id', '=', id)
      .executeTakeFirst();
  }

  async getForTaskImage(taskId: number, imageId: number) {
    return this.db
      .selectFrom('results')
      .leftJoin('images', 'images.id', 'results.image_id')
      .selectAll('results')
      .select(['images.blob_key', 'images.thumb_key'])
      .where('results.task_id', '=', taskId)
      .where('results.image_id', '=', imageId)
      .executeTakeFirst();
  }

  /**
   * count/average/max/min and the contract's histogram bins over the scored results of the filter (reviewed
   * values), in one pass.
   */
  async summary(filter: ResultFilter) {
    const inRange = (from: number, to: number) => {
      const lo = Number.isFinite(from) ? sql`results.ppd_value >= ${from}` : sql`1 = 1`;
      const hi = Number.isFinite(to) ? sql`results.ppd_value < ${to}` : sql`1 = 1`;
      return sql<number>`coalesce(sum(case when ${lo} and ${hi} then 1 else 0 end), 0)`;
    };
    const q = this.filtered(filter)
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.avg<number | null>('results.ppd_value').as('average'),
        eb.fn.max('results.ppd_value').as('max'),
        eb.fn.min('results.ppd_value').as('min'),
        ...HISTOGRAM_BINS.map((b, i) => inRange(b.from, b.to).as(`bin${i}`)),
      ])
      .where('results.ppd_value', 'is not', null);
    const row = (await q.executeTakeFirstOrThrow()) as Record<string, unknown>;
    const bins = Object.fromEntries(HISTOGRAM_BINS.map((b, i) => [b.key, Number(row[`bin${i}`] ?? 0)])) as Record<
      HistogramKey,
      number
    >;
    return {
      count: Number(row.count),
      average: row.average as number | null,
      max: row.max as number | null,
      min: row.min as number | null,
      bins,
    };
  }

  /**
   * The export's rows in id order, columns in the CSV's order then the id (the SQLite export compiles this
   * query and streams it): per result, the CSV's columns; per specimen, the result's name, task and specimens.
   */
  exportQuery(filter: ResultFilter, format: ExportFormat = 'results') {
    return format === 'specimens' ? this.specimenExportQuery(filter) : this.resultExportQuery(filter);
  }

  /** Results with specimens (a failed image has none): name, task and the specimens' JSON. */
  private specimenExportQuery(filter: ResultFilter) {
    return this.filtered(filter)
      .select(['results.image_name', 'results.task_id', 'results.specimens', 'results.image_id', 'results.id'])
      .where('results.specimen_count', '>', 0)
      .orderBy('results.id');
  }

  private resultExportQuery(filter: ResultFilter) {
    return this.filtered(filter)
      .select([
        'results.image_name',
        'results.ppd_value',
        'results.confidence',
        'results.prediction',
        'results.processing_time',
        'results.sub_ppd_values',
        'results.task_id',
        'results.error_code',
        'results.engine_ppd_value',
        'results.reviewed',
        'results.specimen_count',
        'results.image_id',
        'results.id',
      ])
      .orderBy('results.id');
  }

  /** One page of the export after `afterId`, in id order. */
  async exportPage(filter: ResultFilter, afterId: number, format: ExportFormat = 'results', limit = EXPORT_PAGE) {
    const rows =
      format === 'specimens'
        ? await this.specimenExportQuery(filter).where('results.id', '>', afterId).limit(limit).execute()
        : await this.resultExportQuery(filter).where('results.id', '>', afterId).limit(limit).execute();
    return rows as Record<string, unknown>[];
  }

  /**
   * The library's result figures (GET /figures/): photos with a scored result and the specimens counted in each
   * one's newest scored result (its `images.last_result_id`, one primary-key lookup a photo), and photos with a
   * reviewed result.
   */
  async libraryFigures(): Promise<{ photosScored: number; specimensScored: number; photosReviewed: number }> {
    const [scored, reviewed] = await Promise.all([
      this.db
        .selectFrom('images')
        .innerJoin('results', 'results.id', 'images.last_result_id')
        .select([
          sql<number>`count(*)`.as('photos'),
          sql<number | null>`sum(results.counted_specimens)`.as('specimens'),
        ])
        .where('results.ppd_value', 'is not', null)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('results')
        .select(sql<number>`count(distinct results.image_id)`.as('photos'))
        .where('results.reviewed', '=', 1)
        .where('results.ppd_value', 'is not', null)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      photosScored: Number(scored.photos),
      specimensScored: Number(scored.specimens ?? 0),
      photosReviewed: Number(reviewed.photos),
    };
  }

  /**
   * The newest reviewed result with a PPD of each of these images (the Images screen shows the reviewed value,
   * which a researcher trusts, beside a later run nobody reviewed): its id, task, reviewed PPD and band.
   */
  async newestReviewedOf(
    imageIds: number[],
  ): Promise<Map<number, { id: number; taskId: number; ppdValue: number; prediction: string | null }>> {
    const out = new Map<number, { id: number; taskId: number; ppdValue: number; prediction: string | null }>();
    for (let i = 0; i < imageIds.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('results')
        .select(['id', 'image_id', 'task_id', 'ppd_value', 'prediction'])
        .where('image_id', 'in', imageIds.slice(i, i + CHUNK))
        .where('reviewed', '=', 1)
        .where('ppd_value', 'is not', null)
        .orderBy('id')
        .execute();
      // In id order: the last row of an image is its newest reviewed result.
      for (const r of rows)
        out.set(r.image_id, { id: r.id, taskId: r.task_id, ppdValue: Number(r.ppd_value), prediction: r.prediction });
    }
    return out;
  }

  // ---- writers: scoring ----

  /**
   * Stores one image's outcome inside the caller's transaction: the result row (unique per task and image)
   * and, for a scored image that still exists, the image's newest-result columns. Returns the new row's id,
   * or null when the image already had a row in this task (another worker stored it first).
   */
  async insertOutcome(r: ResultRecord, imageExists: boolean, now: string): Promise<number | null> {
    const inserted = await this.db
      .insertInto('results')
      .values({
        task_id: r.taskId,
        image_id: r.imageId,
        image_name: r.imageName,
        image_name_lower: r.imageName.toLowerCase(),
        ppd_value: r.ppdValue,
        sub_ppd_values: JSON.stringify(r.subPpdValues),
        counted_specimens: r.subPpdValues.length,
        prediction: r.prediction,
        confidence: r.confidence,
        oss_key: r.ossKey,
        vis_keys: JSON.stringify(r.visKeys),
        specimens: JSON.stringify(r.specimens),
        specimen_count: r.specimens.length,
        needs_review: r.needsReview ? 1 : 0,
        reviewed: 0,
        engine_ppd_value: r.ppdValue,
        error_code: r.errorCode,
        error_message: r.errorMessage,
        processing_time: r.processingTime,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['task_id', 'image_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return null;
    if (r.errorCode === null && r.ppdValue !== null && imageExists) {
      await this.db
        .updateTable('images')
        .set({ ppd_value: r.ppdValue, last_prediction: r.prediction, last_result_id: inserted.id })
        .where('id', '=', r.imageId)
        .where((eb) => eb.or([eb('last_result_id', 'is', null), eb('last_result_id', '<', inserted.id)]))
        .execute();
    }
    return inserted.id;
  }

  /** Which of these images already have a result in the task (a retried job skips them). */
  async imagesWithResults(taskId: number, imageIds: number[]): Promise<Set<number>> {
    const done = new Set<number>();
    for (let i = 0; i < imageIds.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('results')
        .select('image_id')
        .where('task_id', '=', taskId)
        .where('image_id', 'in', imageIds.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) done.add(r.image_id);
    }
    return done;
  }

  /** Of the (task, image) pairs these ids make, those that have a result row, as `task/image` (the orphan sweep). */
  async resultPairs(taskIds: number[], imageIds: number[]): Promise<Set<string>> {
    const pairs = new Set<string>();
    if (taskIds.length === 0) return pairs;
    for (let i = 0; i < imageIds.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('results')
        .select(['task_id', 'image_id'])
        .where('task_id', 'in', taskIds)
        .where('image_id', 'in', imageIds.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) pairs.add(`${r.task_id}/${r.image_id}`);
    }
    return pairs;
  }

  async hasResult(taskId: number, imageId: number): Promise<boolean> {
    return (await this.imagesWithResults(taskId, [imageId])).size > 0;
  }

  // ---- writers: removal ----

  /**
   * Inside the transaction that deletes or overwrites images, before the image rows change: removes those
   * images' results, resets their PPD columns (an overwritten image has no result any more) and returns the
   * results' stored file keys, which the caller deletes after commit. Task counters are history and stay.
   */
  async removeForImages(imageIds: number[]): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < imageIds.length; i += CHUNK) {
      const ids = imageIds.slice(i, i + CHUNK);
      const rows = await this.db
        .selectFrom('results')
        .select(['oss_key', 'vis_keys', 'specimens'])
        .where('image_id', 'in', ids)
        .execute();
      for (const row of rows) keys.push(...resultFileKeys(row));
      await this.db.deleteFrom('results').where('image_id', 'in', ids).execute();
      await this.db
        .updateTable('images')
        .set({ ppd_value: null, last_prediction: null, last_result_id: null })
        .where('id', 'in', ids)
        .execute();
    }
    return keys;
  }

  /**
   * Inside the transaction that deletes a task: removes its results; images whose newest result was among
   * them fall back to their newest scored result of another task (or none). Returns the stored file keys.
   */
  async removeForTask(taskId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('results')
      .select(['oss_key', 'vis_keys', 'specimens'])
      .where('task_id', '=', taskId)
      .execute();
    await this.db
      .updateTable('images')
      .set((eb) => {
        const newest = eb
          .selectFrom('results as r')
          .whereRef('r.image_id', '=', 'images.id')
          .where('r.ppd_value', 'is not', null)
          .where('r.task_id', '<>', taskId)
          .orderBy('r.id', 'desc')
          .limit(1);
        return {
          ppd_value: newest.select('r.ppd_value'),
          last_prediction: newest.select('r.prediction'),
          last_result_id: newest.select('r.id'),
        };
      })
      .where(
        'images.last_result_id',
        'in',
        this.db.selectFrom('results').select('results.id').where('results.task_id', '=', taskId),
      )
      .execute();
    await this.db.deleteFrom('results').where('task_id', '=', taskId).execute();
    return rows.flatMap(resultFileKeys);
  }

  // ---- writers: review ----

  /**
   * A result with its image's size, read for a review change inside the caller's transaction. On PostgreSQL
   * the row is locked (FOR UPDATE) until commit, so two reviewers' changes apply one after the other, each
   * to the other's outcome (SQLite has one writer: its transactions already run one at a time).
   */
  async getForReview(id: number, postgres: boolean) {
    let q = this.db.selectFrom('results').selectAll().where('id', '=', id);
    if (postgres) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (!row) return undefined;
    const image = await this.db
      .selectFrom('images')
      .select(['id', 'width', 'height', 'blob_key'])
      .where('id', '=', row.image_id)
      .executeTakeFirst();
    return { row, image };
  }

  /**
   * Writes a reviewed result (never its engine values), its history rows in order, and the image's PPD
   * when this result is the image's newest.
   */
  async saveReview(row: ResultRow, values: ReviewedValues, history: NewReviewRow[]): Promise<void> {
    await this.db
      .updateTable('results')
      .set({
        specimens: JSON.stringify(values.specimens),
        specimen_count: values.specimens.length,
        ppd_value: values.ppdValue,
        sub_ppd_values: JSON.stringify(values.subPpdValues),
        counted_specimens: values.subPpdValues.length,
        prediction: values.prediction,
        needs_review: values.needsReview ? 1 : 0,
        reviewed: 1,
      })
      .where('id', '=', row.id)
      .execute();
    for (const h of history) await this.db.insertInto('result_reviews').values(h).execute();
    await this.db
      .updateTable('images')
      .set({ ppd_value: values.ppdValue, last_prediction: values.prediction })
      .where('id', '=', row.image_id)
      .where('last_result_id', '=', row.id)
      .execute();
  }

  /**
   * The latest review note of each specimen of these results (a change without a note leaves the one before it),
   * keyed `resultId:index`: the per-specimen export's `note`.
   */
  async latestNotes(resultIds: number[]): Promise<Map<string, string>> {
    const notes = new Map<string, string>();
    if (resultIds.length === 0) return notes;
    const rows = await this.db
      .selectFrom('result_reviews')
      .select(['result_id', 'specimen_index', 'note'])
      .where('result_id', 'in', resultIds)
      .where('note', 'is not', null)
      .where('note', '<>', '')
      .orderBy('id')
      .execute();
    for (const r of rows) notes.set(`${r.result_id}:${r.specimen_index}`, r.note!);
    return notes;
  }

  /** Every review change of a result, oldest first. */
  async history(resultId: number) {
    return this.db.selectFrom('result_reviews').selectAll().where('result_id', '=', resultId).orderBy('id').execute();
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('results').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  // ---- reads of the storage check (storage-check/) ----

  /** A page of results in id order with the storage keys of their files (`resultFileKeys`). */
  async storedFilesPage(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; task_id: number; image_id: number; image_name: string; keys: string[] }[]> {
    const rows = await this.db
      .selectFrom('results')
      .select(['id', 'task_id', 'image_id', 'image_name', 'oss_key', 'vis_keys', 'specimens'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      task_id: r.task_id,
      image_id: r.image_id,
      image_name: r.image_name,
      keys: resultFileKeys(r),
    }));
  }

  /** Every storage key the result rows of these (task, image) pairs name. */
  async fileKeysOfPairs(pairs: { taskId: number; imageId: number }[]): Promise<Set<string>> {
    const keys = new Set<string>();
    const taskIds = [...new Set(pairs.map((p) => p.taskId))];
    const imageIds = [...new Set(pairs.map((p) => p.imageId))];
    if (taskIds.length === 0) return keys;
    for (let i = 0; i < imageIds.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('results')
        .select(['oss_key', 'vis_keys', 'specimens'])
        .where('task_id', 'in', taskIds)
        .where('image_id', 'in', imageIds.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) for (const k of resultFileKeys(r)) keys.add(k);
    }
    return keys;
  }
}
