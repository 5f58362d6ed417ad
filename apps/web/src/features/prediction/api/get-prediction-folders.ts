import { useQuery } from '@tanstack/react-query';
import { folderListSchema, PAGE_SIZE_MAX } from '@cassavascope/contract';
import { api, listCount, listResults } from '../../../lib/api-client';
import { normalizeFolder, type FolderItem } from '../../../lib/normalize-folder';

export async function getPredictionFolders(signal?: AbortSignal): Promise<{ count: number; folders: FolderItem[] }> {
  const data = await api.get('/folders/', { page_size: PAGE_SIZE_MAX }, signal, folderListSchema);
  return { count: listCount(data), folders: listResults(data).map(normalizeFolder) };
}

/** The folder sidebar of the prediction screen (folders are few: one page of the largest size). */
export function usePredictionFolders() {
  return useQuery({
    queryKey: ['prediction', 'folders'],
    queryFn: ({ signal }) => getPredictionFolders(signal),
    refetchOnMount: 'always',
  });
}
