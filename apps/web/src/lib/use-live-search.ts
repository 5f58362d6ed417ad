import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before a search is applied (every screen's live search). */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Live search over a filter object that holds a `search` field: returns the text box's value and its setter,
 * and hands `onFilterChange` the filter with the new search once the typing pauses. The latest filter and
 * callback are read when the timer fires, so a filter changed meanwhile (severity, folder) is kept.
 */
export function useLiveSearch<F extends { search: string }>(
  filter: F,
  onFilterChange: (next: F) => void,
): [string, (text: string) => void] {
  const [input, setInput] = useState(filter.search);
  const latest = useRef({ filter, onFilterChange });
  latest.current = { filter, onFilterChange };
  useEffect(() => {
    const timer = setTimeout(() => {
      const { filter: current, onFilterChange: change } = latest.current;
      if (input !== current.search) change({ ...current, search: input });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  return [input, setInput];
}
