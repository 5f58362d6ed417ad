import type { MetadataValue } from '@cassavascope/contract';
import { sql, type RawBuilder } from 'kysely';

/**
 * SQL helpers the repositories share (docs/architecture.md, "Floors": owners are leaves and call no other
 * repository): the `meta.*` / `meta_missing` filter on `image_fields`, the `has_labels` filter on `image_labels`,
 * and LIKE escaping.
 */

/**
 * One `meta.FIELD=VALUE` condition, its value already typed (a number matches num_value, text text_value); a null
 * value (`meta_missing=FIELD`) asks for images without that field.
 */
export interface MetaCondition {
  field: string;
  value: MetadataValue | null;
}

/**
 * SQL condition "the image (`imageId`, a column reference such as `images.id`) has every one of these field
 * values" (and lacks each field whose condition value is null): for the images and results repositories' filters. Each condition is an indexed lookup on
 * (field, value) giving image ids.
 */
export function metaConditionSql(imageId: string, conditions: MetaCondition[]): RawBuilder<boolean> {
  const parts = conditions.map((c) => {
    // Without the field: no row of image_fields for that image and field (a lookup on the primary key).
    if (c.value === null)
      return sql`not exists (select 1 from image_fields where image_fields.image_id = ${sql.ref(imageId)} and image_fields.field = ${c.field})`;
    const column = typeof c.value === 'number' ? sql.ref('image_fields.num_value') : sql.ref('image_fields.text_value');
    return sql`${sql.ref(imageId)} in (select image_fields.image_id from image_fields where image_fields.field = ${c.field} and ${column} = ${c.value})`;
  });
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** `column` (an image id) has labels (`has` true) or has none: the listings' `has_labels` filter. */
export function labelledCondition(column: string, has: boolean): RawBuilder<boolean> {
  const labelled = sql`(select image_id from image_labels)`;
  return has ? sql<boolean>`${sql.ref(column)} in ${labelled}` : sql<boolean>`${sql.ref(column)} not in ${labelled}`;
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
