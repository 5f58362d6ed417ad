import { exportColumnOf, type MetadataValue, type ResultGroup } from '@cassavascope/contract';
import { groupStatistics } from './group-statistics.js';
import type { GroupSums } from './results.repository.js';

type KeyValue = MetadataValue | null;

/** Key order: numbers by value, then text (natural order, so TME2 before TME10), the null group last. */
function compareValues(a: KeyValue, b: KeyValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a.localeCompare(b, 'en', { numeric: true }) || (a < b ? -1 : 1);
}

/**
 * `GET /predictions/groups/`: each group's key object, counts, statistics and bands, sorted by key; with `values`
 * (each result's key and value) also each group's values, ascending.
 */
export function toResultGroups(
  fields: string[],
  sums: GroupSums[],
  values?: { key: KeyValue[]; value: number }[],
): ResultGroup[] {
  const valuesByKey = new Map<string, number[]>();
  for (const v of values ?? []) {
    // A number and a text never share a key (1 is not "1"): JSON keeps the difference.
    const id = JSON.stringify(v.key);
    valuesByKey.set(id, [...(valuesByKey.get(id) ?? []), v.value]);
  }
  const sorted = [...sums].sort((x, y) => {
    for (let i = 0; i < fields.length; i++) {
      const c = compareValues(x.key[i] ?? null, y.key[i] ?? null);
      if (c !== 0) return c;
    }
    return 0;
  });
  return sorted.map((g) => ({
    key: Object.fromEntries(fields.map((f, i) => [f, g.key[i] ?? null])),
    images: g.images,
    specimens: g.specimens,
    ...groupStatistics(g.images, g.sum, g.sumSquares),
    bands: { healthy: g.healthy, mild: g.mild, severe: g.severe },
    ...(values ? { values: (valuesByKey.get(JSON.stringify(g.key)) ?? []).sort((a, b) => a - b) } : {}),
  }));
}

const cell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const text = String(v);
  const safe = /^[=+\-@\t\r]/.test(text) && typeof v !== 'number' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * The group table as CSV (UTF-8 with BOM, as the result export): the key fields under their export column names
 * (genotype -> germplasmName ...), then n, the mean PPD under the trait id's column and its spread.
 */
export function groupsCsv(fields: string[], groups: ResultGroup[], traitColumn: string): string {
  const header = [
    ...fields.map(exportColumnOf),
    'images',
    'specimens',
    traitColumn,
    'sd',
    'ci95_low',
    'ci95_high',
    'healthy',
    'mild',
    'severe',
  ];
  const lines = groups.map((g) =>
    [
      ...fields.map((f) => g.key[f]),
      g.images,
      g.specimens,
      g.mean,
      g.sd,
      g.ci95?.[0],
      g.ci95?.[1],
      g.bands.healthy,
      g.bands.mild,
      g.bands.severe,
    ]
      .map(cell)
      .join(','),
  );
  return `\uFEFF${[header.map(cell).join(','), ...lines].join('\r\n')}\r\n`;
}
