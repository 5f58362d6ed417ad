import { METADATA_FIELD_PATTERN } from '@cassavascope/contract';
import { useCallback } from 'react';
import { loadStored, useStoredState } from '../../../lib/use-stored-state';
import type { DateGrouping } from '../image-groups';

/** How the Images grid is grouped: by a sample field, or (none) by the sort's own keys, dates by year/month/day. */
export interface ImagesGrouping {
  groupBy: string | null;
  dateGrouping: DateGrouping;
}

const STORAGE_KEY = 'cassavascope.images.grouping';
const DATE_GROUPINGS: readonly DateGrouping[] = ['year', 'month', 'day'];
export const DEFAULT_GROUPING: ImagesGrouping = { groupBy: null, dateGrouping: 'day' };

/** A saved grouping as far as it is readable; each unreadable part is its default. */
function readGrouping(value: unknown): ImagesGrouping {
  const saved = (value ?? {}) as Partial<ImagesGrouping>;
  return {
    groupBy: typeof saved.groupBy === 'string' && METADATA_FIELD_PATTERN.test(saved.groupBy) ? saved.groupBy : null,
    dateGrouping: DATE_GROUPINGS.find((g) => g === saved.dateGrouping) ?? DEFAULT_GROUPING.dateGrouping,
  };
}

/** The grouping saved by the last visit (the page prefetches its first listing before it renders). */
export const loadGrouping = (): ImagesGrouping => loadStored(STORAGE_KEY, readGrouping);

/** The Images screen's grouping, kept in this browser across reloads (lib/use-stored-state.ts). */
export function useImagesGrouping(): [ImagesGrouping, (change: Partial<ImagesGrouping>) => void] {
  const [grouping, setGrouping] = useStoredState(STORAGE_KEY, readGrouping);
  const update = useCallback(
    (change: Partial<ImagesGrouping>) => setGrouping((prev) => ({ ...prev, ...change })),
    [setGrouping],
  );
  return [grouping, update];
}
