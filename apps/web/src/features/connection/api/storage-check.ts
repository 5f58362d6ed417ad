import { storageCheckSchema, type StorageCheck } from '@cassavascope/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client';

export const STORAGE_CHECK_KEY = ['connection', 'storage-check'] as const;
/** How often the screen asks again while a check runs. */
const WHILE_RUNNING_MS = 2000;

/**
 * `GET /storage-check/`: the last check of the stored files with its first problems (issue 26). Asked again
 * every 2 s while a check runs, so the result appears when it ends. A session that cannot read it (none) gives
 * no details rather than the sign-in form: the status above already says what the check found.
 */
export function useStorageCheck(enabled: boolean) {
  return useQuery({
    queryKey: STORAGE_CHECK_KEY,
    queryFn: () => apiRequest<StorageCheck>('/storage-check/', { schema: storageCheckSchema, waitForSignIn: false }),
    enabled,
    retry: false,
    refetchInterval: (query) => (query.state.data?.running ? WHILE_RUNNING_MS : false),
  });
}

/** `POST /storage-check/` (admin): the check starts in the background; the details then follow it. */
export function useStartStorageCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<StorageCheck>('/storage-check/', undefined, storageCheckSchema),
    onSuccess: (data) => client.setQueryData(STORAGE_CHECK_KEY, data),
    onSettled: () => client.invalidateQueries({ queryKey: STORAGE_CHECK_KEY }),
  });
}
