import { useQuery } from '@tanstack/react-query';
import {
  imageListSchema,
  metadataParseResponseSchema,
  PAGE_SIZE_MAX,
  taskListSchema,
  type MetadataParseResponse,
} from '@cassavascope/contract';
import { api, apiRequest, listResults } from '../../../lib/api-client';
import { groupFilterParams, type GroupKey } from '../../../lib/groups/group-key';
import { normalizeImage, type ImageItem } from '../../../lib/normalize-image';
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
const GROUP_PHOTOS = 60;

/** The scored photos of a group, newest first (a key value null: the images without that field). */
export function useGroupImages(key: GroupKey | null) {
  return useQuery({
    queryKey: ['samples', 'group-images', JSON.stringify(key)],
    enabled: key !== null,
    queryFn: async ({ signal }): Promise<ImageItem[]> =>
      listResults(
        await api.get(
          '/images/',
          { ...groupFilterParams(key ?? {}), has_ppd: 'true', page_size: GROUP_PHOTOS },
          signal,
          imageListSchema,
        ),
      ).map(normalizeImage),
  });
}
