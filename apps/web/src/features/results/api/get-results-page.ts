import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { resultListSchema, type Severity } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { normalizeResultList, type ResultView } from '../../../lib/normalize-result';
import { groupFilterParams, type GroupKey } from '../../../lib/groups/group-key';
import { metaParams, type MetadataFilterValue } from '../../../lib/metadata-params';

export interface ResultFilter {
  taskId: number | null;
  search: string;
  severity: Severity | 'all';
  /** only results with a specimen that needs review (the review filter) */
  needsReview?: boolean;
  /** a sample field's value (`meta.FIELD=VALUE`) */
  meta?: MetadataFilterValue;
  /** one group of the "By group" view (`meta.FIELD=VALUE` per field, `meta_missing` for the fields it lacks) */
  group?: GroupKey | null;
}

/** Results per request: cards ask for the page they sit on, so a 10 000-result task loads what is on screen. */
export const RESULT_PAGE_SIZE = 100;

export interface ResultPage {
  count: number;
  items: ResultView[];
}

/** The filter as the API's query parameters (the listing and the CSV export take the same ones). */
export function resultFilterQuery(filter: ResultFilter) {
  return {
    task_id: filter.taskId ?? undefined,
    search: filter.search.trim() || undefined,
    severity: filter.severity === 'all' ? undefined : filter.severity,
    needs_review: filter.needsReview ? 'true' : undefined,
    ...metaParams(filter.meta?.value ? filter.meta : null),
    ...(filter.group ? groupFilterParams(filter.group) : {}),
  };
}

export async function getResultsPage(filter: ResultFilter, page: number, signal?: AbortSignal): Promise<ResultPage> {
  const data = await api.get(
    '/predictions/',
    { ...resultFilterQuery(filter), page, page_size: RESULT_PAGE_SIZE },
    signal,
    resultListSchema,
  );
  const { count, results } = normalizeResultList(data);
  return { count, items: results };
}

const resultsPageOptions = (filter: ResultFilter, page: number) => ({
  queryKey: ['results', 'page', filter, page] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) => getResultsPage(filter, page, signal),
  staleTime: 30_000,
});

export const pageOfIndex = (index: number) => Math.floor(index / RESULT_PAGE_SIZE) + 1;

/**
 * The page holding result number `index` (0-based) of the filter. Items use the cache as it is (they mount and
 * unmount while scrolling); the screen's own observer of page 1 passes `fresh` so each visit asks the server.
 */
export function useResultsPage(filter: ResultFilter, page: number, fresh = false) {
  return useQuery({
    ...resultsPageOptions(filter, page),
    placeholderData: page === 1 ? keepPreviousData : undefined,
    refetchOnMount: fresh ? 'always' : true,
  });
}

/** The result at `index` (0-based) of the filter; loads its page when needed (the preview's wrap-around). */
export function useResultAt(filter: ResultFilter, index: number): ResultView | null {
  const { data } = useResultsPage(filter, pageOfIndex(index));
  return data?.items[index % RESULT_PAGE_SIZE] ?? null;
}
