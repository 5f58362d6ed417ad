import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  resultSchema,
  reviewHistorySchema,
  type AddSpecimenInput,
  type ReviewHistoryEntry,
  type SpecimenReviewInput,
} from '@cassavascope/contract';
import { apiRequest } from '../../../lib/api-client';
import { normalizeResult, type ResultView } from '../../../lib/normalize-result';
import type { ResultPage } from './get-results-page';

/** A reviewed result comes back from the server; the engine may take a moment on a drawn box. */
const REVIEW_TIMEOUT_MS = 60_000;

export async function patchSpecimen(resultId: number, index: number, body: SpecimenReviewInput): Promise<ResultView> {
  return normalizeResult(
    await apiRequest<unknown>(`/predictions/${resultId}/specimens/${index}/`, {
      method: 'PATCH',
      body,
      schema: resultSchema,
    }),
  );
}

export async function addSpecimen(resultId: number, body: AddSpecimenInput): Promise<ResultView> {
  return normalizeResult(
    await apiRequest<unknown>(`/predictions/${resultId}/specimens/`, {
      method: 'POST',
      body,
      timeoutMs: REVIEW_TIMEOUT_MS,
      schema: resultSchema,
    }),
  );
}

export async function getHistory(resultId: number, signal?: AbortSignal): Promise<ReviewHistoryEntry[]> {
  const data = await apiRequest<unknown>(`/predictions/${resultId}/history/`, { signal, schema: reviewHistorySchema });
  return Array.isArray(data) ? (data as ReviewHistoryEntry[]) : [];
}

/**
 * A reviewed result replaces its old copy in every cached page, so the list keeps its order and positions while
 * the reviewer walks through it (a result that no longer needs review stays where it was until the detail closes,
 * see `refreshAfterReview`). The summary and the images' PPD reload at once.
 */
export function applyReviewed(client: QueryClient, result: ResultView): void {
  client.setQueriesData<ResultPage>({ queryKey: ['results', 'page'] }, (page) =>
    page ? { ...page, items: page.items.map((item) => (item.id === result.id ? result : item)) } : page,
  );
  client.setQueriesData<ResultView>({ queryKey: ['results', 'one', result.id] }, () => result);
  void client.invalidateQueries({ queryKey: ['results', 'summary'] });
  void client.invalidateQueries({ queryKey: ['results', 'history', result.id] });
  void client.invalidateQueries({ queryKey: ['images'] });
}

/** After a review session: every list of results reloads (filters such as "needs review" then apply again). */
export function refreshAfterReview(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: ['results'], predicate: (q) => q.queryKey[1] !== 'tasks' });
}

type ReviewAction =
  | { kind: 'patch'; resultId: number; index: number; body: SpecimenReviewInput }
  | { kind: 'add'; resultId: number; body: AddSpecimenInput };

/** One mutation for every review change; the reviewed result goes into the cache. */
export function useReviewMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: ReviewAction) =>
      action.kind === 'patch'
        ? patchSpecimen(action.resultId, action.index, action.body)
        : addSpecimen(action.resultId, action.body),
    onSuccess: (result) => applyReviewed(client, result),
  });
}
