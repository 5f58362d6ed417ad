import type { MetadataValue } from '@cassavascope/contract';

/** A group's key as GET /predictions/groups/ gives it: a value per field, null when its images lack the field. */
export type GroupKey = Record<string, MetadataValue | null>;

/** The first group field until the researcher picks: genotype when the library has it, else the most used field. */
export function defaultGroupField(fields: string[]): string | null {
  return fields.includes('genotype') ? 'genotype' : (fields[0] ?? null);
}

/** The `by` of a group query: the first field, then the second when it is another one. */
export function groupByFields(first: string | null, second: string | null): string[] {
  if (!first) return [];
  return second && second !== first ? [first, second] : [first];
}

/**
 * The listing filter of exactly one group: `meta.FIELD=VALUE` for each field with a value, and `meta_missing` naming
 * the fields without one (the images of the null group lack them).
 */
export function groupFilterParams(key: GroupKey): Record<string, string> {
  const entries = Object.entries(key);
  const missing = entries.flatMap(([f, v]) => (v === null ? [f] : []));
  return Object.fromEntries([
    ...entries.flatMap(([f, v]) => (v === null ? [] : [[`meta.${f}`, String(v)]])),
    ...(missing.length > 0 ? [['meta_missing', missing.join(',')]] : []),
  ]);
}

/**
 * A key as one line; a missing value reads `noValue`. Fields are named (`"Genotype TME419 · Days after harvest
 * 7"`) `always`, `never` (`"TME419 · 7"`, where a heading names them), or by default when there are two.
 */
export function groupKeyText(
  key: GroupKey,
  label: (field: string) => string,
  noValue: string,
  names: 'auto' | 'always' | 'never' = 'auto',
): string {
  const fields = Object.keys(key);
  return fields
    .map((f) => {
      const v = key[f];
      const text = v === null || v === undefined ? noValue : String(v);
      const named = names === 'always' || (names === 'auto' && fields.length > 1);
      return named ? `${label(f)} ${text}` : text;
    })
    .join(' · ');
}
