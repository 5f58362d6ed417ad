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

/** The fields of a key without a value (its images lack them). */
export function missingFields(key: GroupKey): string[] {
  return Object.entries(key).flatMap(([f, v]) => (v === null ? [f] : []));
}

/**
 * `meta.FIELD=VALUE` for each field of a key that has a value. For a key without missing fields this lists
 * exactly that group's results; the listing has no "without the field" filter for the others.
 */
export function groupMetaParams(key: GroupKey): Record<string, string> {
  return Object.fromEntries(Object.entries(key).flatMap(([f, v]) => (v === null ? [] : [[`meta.${f}`, String(v)]])));
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
