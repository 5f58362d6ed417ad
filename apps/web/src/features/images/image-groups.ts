import { SIZE_BUCKET_1MB, SIZE_BUCKET_5MB } from '@cassavascope/contract';
import type { ImageItem } from '../../lib/normalize-image';
import type { ImageGroup, SortDirection, SortField } from './api/list-images';

export type DateGrouping = 'year' | 'month' | 'day';

/** Size buckets of the quick-jump index (spec section 9: 1048576 and 5242880 bytes). */
export const SIZE_BUCKETS = ['<1MB', '1-5MB', '>5MB'] as const;

export function sizeBucketOf(bytes: number): (typeof SIZE_BUCKETS)[number] {
  if (bytes < SIZE_BUCKET_1MB) return '<1MB';
  if (bytes <= SIZE_BUCKET_5MB) return '1-5MB';
  return '>5MB';
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/;

/**
 * The group an image falls in: grouped by a field, its value as text ("" without it, as the server keys it); else
 * for the current sort: date part (UTC, as the server groups), first letter, folder, size bucket.
 */
export function groupKeyOf(
  image: ImageItem,
  sort: SortField,
  dateGrouping: DateGrouping,
  groupBy: string | null = null,
): string {
  if (groupBy) {
    const value = image.metadata[groupBy];
    return value === undefined ? '' : String(value);
  }
  switch (sort) {
    case 'date': {
      const iso = image.createdTime ?? image.uploadDate ?? '';
      // The server sends UTC ("...Z"): its first ten characters are the UTC day, no Date parsing needed.
      let day = ISO_UTC.test(iso) ? iso.slice(0, 10) : '';
      if (!day) {
        const d = new Date(iso);
        if (Number.isNaN(d.getTime())) return '--';
        day = d.toISOString().slice(0, 10);
      }
      return dateGrouping === 'year' ? day.slice(0, 4) : dateGrouping === 'month' ? day.slice(0, 7) : day;
    }
    case 'name': {
      const first = [...image.name.trim()][0] ?? '';
      return /[\p{L}\p{N}]/u.test(first) ? first.toLocaleUpperCase() : '#';
    }
    case 'folder':
      return image.folderId === null ? 'none' : `folder:${image.folderId}`;
    case 'size':
      return sizeBucketOf(image.size);
  }
}

/** Every bucket key the index can show before the images are loaded (size buckets only). */
export function knownGroupKeys(sort: SortField, direction: SortDirection): string[] {
  if (sort !== 'size') return [];
  return direction === 'asc' ? [...SIZE_BUCKETS] : [...SIZE_BUCKETS].reverse();
}

/** At most `max` of the keys, evenly spread, the first and the last always among them (as a phone book's tabs). */
export function spreadKeys(keys: string[], max: number): string[] {
  if (keys.length <= max) return keys;
  const step = (keys.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => keys[Math.round(i * step)]!);
}

export type BrowserRow =
  /** `first`: the position of the group's first image (a key may head two runs while the order is changing) */
  | { kind: 'header'; key: string; count: number; first: number }
  | { kind: 'images'; key: string; items: ImageItem[]; first: number }
  /** `length` images from position `first` of the whole list, loaded or not (placeholders until they are) */
  | { kind: 'slots'; key: string; first: number; length: number };

/**
 * Flattens the loaded images into virtualised rows: a header per group, then rows of `columns` images.
 * `groupStart` maps each group key to its header row (for the quick-jump index).
 */
export function buildRows(
  images: ImageItem[],
  columns: number,
  keyOf: (image: ImageItem) => string,
): { rows: BrowserRow[]; groupStart: Map<string, number>; groupOrder: string[] } {
  const rows: BrowserRow[] = [];
  const groupStart = new Map<string, number>();
  const groupOrder: string[] = [];
  const keys = images.map(keyOf);
  let i = 0;
  while (i < images.length) {
    const key = keys[i]!;
    let end = i;
    while (end < images.length && keys[end] === key) end++;
    // A group split across the sort (should not happen with a server sort) keeps its first header.
    if (!groupStart.has(key)) {
      groupStart.set(key, rows.length);
      groupOrder.push(key);
    }
    rows.push({ kind: 'header', key, count: end - i, first: i });
    for (let j = i; j < end; j += columns) {
      rows.push({ kind: 'images', key, items: images.slice(j, Math.min(j + columns, end)), first: j });
    }
    i = end;
  }
  return { rows, groupStart, groupOrder };
}

/**
 * Every row of the whole filtered library, from the server's groups (issue 15 item 3): a header per run, then
 * rows of `columns` positions, whether their images are loaded or not. So a group's place in the list is known
 * before any of its images are, and a jump goes straight there.
 */
export function layoutRows(
  groups: ImageGroup[],
  columns: number,
): { rows: BrowserRow[]; groupStart: Map<string, number> } {
  const rows: BrowserRow[] = [];
  const groupStart = new Map<string, number>();
  for (const g of groups) {
    if (g.count <= 0) continue;
    if (!groupStart.has(g.key)) groupStart.set(g.key, rows.length);
    rows.push({ kind: 'header', key: g.key, count: g.count, first: g.start });
    for (let j = 0; j < g.count; j += columns)
      rows.push({ kind: 'slots', key: g.key, first: g.start + j, length: Math.min(columns, g.count - j) });
  }
  return { rows, groupStart };
}
