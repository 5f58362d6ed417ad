import type { ImageMetadata, MetadataValue } from '@cassavascope/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** The fields to write for one image: `set` sets or replaces, `remove` drops. */
export interface FieldChange {
  imageId: number;
  set: ImageMetadata;
  remove: string[];
}

/** Rows per statement (SQLite's variable limit: 4 per row). */
const CHUNK = 200;

/** Only as a number or as text, never both: how a typed value is stored. */
function columnsOf(value: MetadataValue): { num_value: number | null; text_value: string | null } {
  return typeof value === 'number' ? { num_value: value, text_value: null } : { num_value: null, text_value: value };
}

/**
 * The one owner of `image_fields` (migration 0011): every image's sample fields, one row per field. Writers
 * take the caller's transaction so a batch of changes commits together.
 */
export class MetadataRepository {
  constructor(private readonly db: Db) {}

  /** The metadata object of each of these images ({} for one without fields). */
  async metadataOf(imageIds: number[]): Promise<Map<number, ImageMetadata>> {
    const out = new Map<number, ImageMetadata>(imageIds.map((id) => [id, {}]));
    for (let i = 0; i < imageIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('image_fields')
        .select(['image_id', 'field', 'num_value', 'text_value'])
        .where('image_id', 'in', imageIds.slice(i, i + 500))
        .orderBy('image_id')
        .orderBy('field')
        .execute();
      for (const r of rows) {
        const value = r.num_value !== null ? Number(r.num_value) : r.text_value;
        if (value !== null) out.get(r.image_id)![r.field] = value;
      }
    }
    return out;
  }

  /** Every field name in use with how many images carry it, most used first. */
  async fieldNames(): Promise<{ field: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('image_fields')
      .select(['field', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('field')
      .execute();
    return rows
      .map((r) => ({ field: r.field, count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.field.localeCompare(b.field));
  }

  /** The distinct values of one field with their image counts (for filter menus), at most `limit`. */
  async valuesOf(field: string, limit: number): Promise<{ value: MetadataValue; count: number }[]> {
    const rows = await this.db
      .selectFrom('image_fields')
      .select(['num_value', 'text_value', (eb) => eb.fn.countAll<number>().as('n')])
      .where('field', '=', field)
      .groupBy(['num_value', 'text_value'])
      .orderBy('num_value')
      .orderBy('text_value')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      value: r.num_value !== null ? Number(r.num_value) : (r.text_value ?? ''),
      count: Number(r.n),
    }));
  }

  /** Applies every change (inside the caller's transaction): upserts the set fields, deletes the removed ones. */
  async apply(changes: FieldChange[]): Promise<void> {
    const rows = changes.flatMap((c) =>
      Object.entries(c.set).map(([field, value]) => ({ image_id: c.imageId, field, ...columnsOf(value) })),
    );
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db
        .insertInto('image_fields')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['image_id', 'field']).doUpdateSet({
            num_value: (eb) => eb.ref('excluded.num_value'),
            text_value: (eb) => eb.ref('excluded.text_value'),
          }),
        )
        .execute();
    }
    for (const c of changes) {
      if (c.remove.length === 0) continue;
      await this.db
        .deleteFrom('image_fields')
        .where('image_id', '=', c.imageId)
        .where('field', 'in', c.remove)
        .execute();
    }
  }

  /** The field names each of these images has (the per-image limit is checked against them). */
  async fieldNamesOf(imageIds: number[]): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>(imageIds.map((id) => [id, new Set()]));
    for (let i = 0; i < imageIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('image_fields')
        .select(['image_id', 'field'])
        .where('image_id', 'in', imageIds.slice(i, i + 500))
        .execute();
      for (const r of rows) out.get(r.image_id)?.add(r.field);
    }
    return out;
  }
}
