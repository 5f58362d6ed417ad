import { useQuery } from '@tanstack/react-query';
import {
  metadataParseResponseSchema,
  PAGE_SIZE_MAX,
  resultListSchema,
  taskListSchema,
  type MetadataParseResponse,
} from '@cassavascope/contract';
import { api, apiRequest } from '../../../lib/api-client';
import { groupFilterParams, type GroupKey } from '../../../lib/groups/group-key';
import { normalizeResultList, type ResultView } from '../../../lib/normalize-result';
import { normalizeTaskList, type TaskView } from '../../../lib/normalize-task';

/** Calls of the Samples section (api.md "Sample metadata"). */

/** Which images a pattern reads: a folder, or the uncategorised ones (`null`). */
export type PatternScope = { folderId: number | null };

/** The pattern's preview (apply false: nothing stored) or its application to the matched images. */
export function parseNames(
  pattern: string,
  scope: PatternScope,
  apply: boolean,
  signal?: AbortSignal,
): Promise<MetadataParseResponse> {
  return apiRequest<MetadataParseResponse>('/images/metadata/parse/', {
    method: 'POST',
    body: { pattern, folder_id: scope.folderId, apply },
    signal,
    timeoutMs: 60_000,
    schema: metadataParseResponseSchema,
  });
}

export function useTaskChoices() {
  return useQuery({
    queryKey: ['samples', 'tasks'],
    queryFn: async ({ signal }): Promise<TaskView[]> =>
      normalizeTaskList(await api.get('/tasks/', { page_size: PAGE_SIZE_MAX }, signal, taskListSchema)).results,
  });
}

/** Photos shown for a group at most (the table has the figures; these are to look at). */
export const GROUP_PHOTOS = 60;

/** The tasks a group summary is over, as its query: none picked is every task (each photo's newest result). */
export const groupTasksFilter = (taskIds: number[]) => (taskIds.length > 0 ? { task_ids: taskIds.join(',') } : {});

/**
 * The results a group counts, newest first: one per photo, its newest scored result (of the picked tasks), with the
 * same query as the group summary, so `count` is the group's n (a key value null: the photos without that field).
 */
export function useGroupResults(key: GroupKey | null, taskIds: number[]) {
  return useQuery({
    queryKey: ['samples', 'group-results', JSON.stringify(key), taskIds.join(',')],
    enabled: key !== null,
    queryFn: async ({ signal }): Promise<{ count: number; results: ResultView[] }> =>
      normalizeResultList(
        await api.get(
          '/predictions/',
          {
            ...groupFilterParams(key ?? {}),
            ...groupTasksFilter(taskIds),
            newest_per_image: 'true',
            page_size: GROUP_PHOTOS,
          },
          signal,
          resultListSchema,
        ),
      ),
  });
}
