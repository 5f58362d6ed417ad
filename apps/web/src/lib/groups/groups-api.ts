import { useQuery } from '@tanstack/react-query';
import { resultGroupSchema, type ResultGroup } from '@cassavascope/contract';
import { z } from 'zod';
import { api, apiUrl, type QueryValue } from '../api-client';

/**
 * The group summary (GET /predictions/groups/) and the fields it can group by, shared by Results' "By group"
 * view and the Samples screen.
 */

/** What a group summary covers: the fields it groups by, and the result listing's filters as query parameters. */
export interface GroupQuery {
  by: string[];
  filter: Record<string, QueryValue>;
}

const fieldListSchema = z.array(z.object({ field: z.string(), count: z.number() }));

/** The sample fields in use (most used first). Same query as the metadata filter's, so one request serves both. */
export function useMetadataFields() {
  return useQuery({
    queryKey: ['samples', 'fields'],
    queryFn: ({ signal }) =>
      api.get<z.infer<typeof fieldListSchema>>('/images/metadata/fields/', undefined, signal, fieldListSchema),
    staleTime: 30_000,
  });
}

const groupsParams = (query: GroupQuery) => ({ ...query.filter, by: query.by.join(',') });

/** The groups with each result's value (`values=true`: the chart's dots; left out past GROUP_VALUES_MAX results). */
export function useResultGroups(query: GroupQuery) {
  return useQuery({
    queryKey: ['results', 'groups', query.by.join(','), query.filter],
    enabled: query.by.length > 0,
    queryFn: ({ signal }) =>
      api.get<ResultGroup[]>(
        '/predictions/groups/',
        { ...groupsParams(query), values: 'true' },
        signal,
        z.array(resultGroupSchema),
      ),
  });
}

/** The group table as CSV (GET /predictions/groups/export/: the same query). */
export function groupsExportUrl(query: GroupQuery): string {
  return apiUrl('/predictions/groups/export/', groupsParams(query));
}
