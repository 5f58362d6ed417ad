import { METADATA_FIELD_PATTERN } from '@cassavascope/contract';
import { useCallback, useState } from 'react';
import type { DateGrouping } from '../image-groups';

/** How the Images grid is grouped: by a sample field, or (none) by the sort's own keys, dates by year/month/day. */
export interface ImagesGrouping {
  groupBy: string | null;
  dateGrouping: DateGrouping;
}

const STORAGE_KEY = 'cassavascope.images.grouping';
const DATE_GROUPINGS: readonly DateGrouping[] = ['year', 'month', 'day'];
export const DEFAULT_GROUPING: ImagesGrouping = { groupBy: null, dateGrouping: 'day' };

/** The grouping saved by the last visit; anything unreadable (another version, a hand edit) is the default. */
export function loadGrouping(): ImagesGrouping {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? 'null') as Partial<ImagesGrouping>;
    return {
      groupBy: typeof saved?.groupBy === 'string' && METADATA_FIELD_PATTERN.test(saved.groupBy) ? saved.groupBy : null,
      dateGrouping: DATE_GROUPINGS.find((g) => g === saved?.dateGrouping) ?? DEFAULT_GROUPING.dateGrouping,
    };
  } catch {
    return DEFAULT_GROUPING;
  }
}

/** The Images screen's grouping, kept in this browser across reloads (localStorage, like the language). */
export function useImagesGrouping(): [ImagesGrouping, (change: Partial<ImagesGrouping>) => void] {
  const [grouping, setGrouping] = useState(loadGrouping);
  const update = useCallback((change: Partial<ImagesGrouping>) => {
    setGrouping((prev) => {
      const next = { ...prev, ...change };
      try {
        globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Storage full or blocked (private mode): the choice holds until the page is closed.
      }
      return next;
    });
  }, []);
  return [grouping, update];
}
