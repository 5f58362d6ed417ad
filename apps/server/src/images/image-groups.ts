import { SIZE_BUCKET_1MB, SIZE_BUCKET_5MB } from '@cassavascope/contract';
import type { ImageOrderKey } from './images.repository.js';

export const DATE_GROUPINGS = ['year', 'month', 'day'] as const;
export type DateGrouping = (typeof DATE_GROUPINGS)[number];

/** One run of the listing: images with the same group key next to each other in its order. */
export interface ImageGroup {
  key: string;
  count: number;
  /** 0-based position of the run's first image in the listing (its page is floor(start / page_size) + 1) */
  start: number;
}

/**
 * The group key of an image for an ordering, as the web app's Images screen groups them: the UTC year, month
 * or day of `created_time`; the upper-cased first character of the name (`#` when it is not a letter or digit);
 * `folder:<id>` or `none`; the size bucket (`<1MB`, `1-5MB`, `>5MB`; spec section 9).
 */
export function groupKey(
  orderKey: ImageOrderKey,
  value: string | number | null | Date,
  grouping: DateGrouping,
): string {
  switch (orderKey) {
    case 'created_time': {
      const iso = value instanceof Date ? value.toISOString() : String(value ?? '');
      const day = /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : '';
      if (!day) return '--';
      return grouping === 'year' ? day.slice(0, 4) : grouping === 'month' ? day.slice(0, 7) : day;
    }
    case 'name': {
      const first = [...String(value ?? '').trim()][0] ?? '';
      return /[\p{L}\p{N}]/u.test(first) ? first.toLocaleUpperCase() : '#';
    }
    case 'folder':
      return value === null || value === undefined ? 'none' : `folder:${value}`;
    case 'size': {
      const n = Number(value);
      return n < SIZE_BUCKET_1MB ? '<1MB' : n <= SIZE_BUCKET_5MB ? '1-5MB' : '>5MB';
    }
  }
}

/** Consecutive runs of equal keys, in order, with their counts and starting positions. */
export function groupRuns(keys: Iterable<string>): ImageGroup[] {
  const runs: ImageGroup[] = [];
  let i = 0;
  for (const key of keys) {
    const last = runs[runs.length - 1];
    if (last && last.key === key) last.count += 1;
    else runs.push({ key, count: 1, start: i });
    i += 1;
  }
  return runs;
}
