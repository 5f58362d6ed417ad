import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

/** What a screen saved under `key` by the last visit, as `read` accepts it (its default when nothing is readable). */
export function loadStored<T>(key: string, read: (saved: unknown) => T): T {
  try {
    return read(JSON.parse(globalThis.localStorage?.getItem(key) ?? 'null'));
  } catch {
    return read(null);
  }
}

/**
 * A screen's view state kept in this browser across reloads (localStorage, as the language and the Images
 * grouping are). `read` checks what was saved: anything unreadable (another version, a hand edit) gives its
 * default. `initial` may adjust the saved state once (a hand-over from another screen wins over it).
 */
export function useStoredState<T>(
  key: string,
  read: (saved: unknown) => T,
  initial: (saved: T) => T = (saved) => saved,
): [T, Dispatch<SetStateAction<T>>] {
  const [state, setState] = useState(() => initial(loadStored(key, read)));
  useEffect(() => {
    try {
      globalThis.localStorage?.setItem(key, JSON.stringify(state));
    } catch {
      // Storage full or blocked (private mode): the state holds until the page is closed.
    }
  }, [key, state]);
  return [state, setState];
}
