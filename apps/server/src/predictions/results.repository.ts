import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { likeContains } from '../images/images.repository.js';

type Db = Kysely<Database>;

export type ResultOrderKey = 'ppd_value' | 'imageName' | 'created_time';

export interface ResultFilter {
  taskId?: number | undefined;
  imageId?: number | undefined;
  search?: string | undefined;
  severity?: 'healthy' | 'mild' | 'severe' | undefined;
  /** results with (true) or without (false) a specimen that needs review */
  needsReview?: boolean | undefined;
  /** results a reviewer changed (true) or not (false) */
  reviewed?: boolean | undefined;
}

/** `results`: one CSV row per result; `specimens`: one per specimen. */
export type ExportFormat = 'results' | 'specimens';

export interface ResultOrder {
  key: ResultOrderKey;
  desc: boolean;
}

/** Band limits of api.md (half-open): healthy [0,4), mild [4,7), severe [7, ...). */
const SEVERITY_RANGES = { healthy: [null, 4], mild: [4, 7], severe: [7, null] } as const;

/** Rows per page of the CSV export (keyset paging on id keeps memory flat and the database free between pages). */
export const EXPORT_PAGE = 2000;

/** Every SQL query that reads results. */
export class ResultsRepository {
  constructor(private readonly db: Db) {}

  private filtered(filter: ResultFilter) {
    let q = this.db.selectFrom('results');
    if (filter.taskId !== undefined) q = q.where('results.task_id', '=', filter.taskId);
    if (filter.imageId !== undefined) q = q.where('results.image_id', '=', filter.imageId);
    if (filter.search) q = q.where(sql<boolean>`results.image_name_lower like ${likeContains(filter.search)} escape '\\'`);
    if (filter.severity) {
      const [from, to] = SEVERITY_RANGES[filter.severity];
      // A failed row has no PPD, so it never matches a severity.
      q = q.where('results.ppd_value', 'is not', null);
      if (from !== null) q = q.where('results.ppd_value', '>=', from);
      if (to !== null) q = q.where('results.ppd_value', '<', to);
    }
    if (filter.needsReview !== undefined) q = q.where('results.needs_review', '=', filter.needsReview ? 1 : 0);
    if (filter.reviewed !== undefined) q = q.where('results.reviewed', '=', filter.reviewed ? 1 : 0);
    return q;
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

  /** count/average/max/min, bands and histogram over scored results, in one pass. */
  async summary(taskId: number | undefined) {
    const inRange = (from: number | null, to: number | null) => {
      const cond =
        from === null ? sql`ppd_value < ${to}` : to === null ? sql`ppd_value >= ${from}` : sql`ppd_value >= ${from} and ppd_value < ${to}`;
      return sql<number>`coalesce(sum(case when ${cond} then 1 else 0 end), 0)`;
    };
    let q = this.db
      .selectFrom('results')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.avg<number | null>('ppd_value').as('average'),
        eb.fn.max('ppd_value').as('max'),
        eb.fn.min('ppd_value').as('min'),
        inRange(null, 4).as('b0_4'),
        inRange(4, 7).as('b4_7'),
        inRange(7, 8).as('b7_8'),
        inRange(8, 10).as('b8_10'),
        inRange(10, null).as('b10'),
      ])
      .where('ppd_value', 'is not', null);
    if (taskId !== undefined) q = q.where('task_id', '=', taskId);
    return q.executeTakeFirstOrThrow();
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
      .select(['results.image_name', 'results.task_id', 'results.specimens', 'results.id'])
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
}
