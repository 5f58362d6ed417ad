import { loadStored, useStoredState } from '../../../lib/use-stored-state';
import { LABELLED_FILTERS, type LabelledFilter } from '../api/list-images';

const STORAGE_KEY = 'cassavascope.images.labelled';

/** A saved labelled filter as far as it is readable: anything else is every photo. */
const readLabelled = (value: unknown): LabelledFilter => LABELLED_FILTERS.find((f) => f === value) ?? 'all';

/** The labelled filter of the last visit (the page prefetches its first listing before it renders). */
export const loadLabelled = (): LabelledFilter => loadStored(STORAGE_KEY, readLabelled);

/**
 * The Images screen's labelled filter (issue 23: all photos, only those with painted labels, only those without),
 * kept in this browser across reloads like the grouping (lib/use-stored-state.ts).
 */
export function useImagesLabelled() {
  return useStoredState(STORAGE_KEY, readLabelled);
}
