import { folderListSchema, folderSchema, movedSchema, PAGE_SIZE_MAX } from '@cassavascope/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, listCount, listResults } from './api-client';
import { normalizeFolder, type FolderItem } from './normalize-folder';

/**
 * Folder calls shared by the images and folders screens (both list, create and move into folders).
 * After any change call `invalidateLibrary` so every list reloads (spec section 4).
 */
export const FOLDERS_KEY = ['folders'] as const;
export const IMAGES_KEY = ['images'] as const;

/** All folders, following pages (a library rarely has more than one page of 1000). */
export async function fetchAllFolders(signal?: AbortSignal): Promise<FolderItem[]> {
  const out: FolderItem[] = [];
  for (let page = 1; page <= 100; page++) {
    const data = await api.get('/folders/', { page, page_size: PAGE_SIZE_MAX }, signal, folderListSchema);
    const rows = listResults(data);
    out.push(...rows.map(normalizeFolder));
    if (Array.isArray(data) || out.length >= listCount(data) || rows.length === 0) break;
  }
  return out;
}

export function useFolders() {
  return useQuery({ queryKey: FOLDERS_KEY, queryFn: ({ signal }) => fetchAllFolders(signal) });
}

export interface FolderInput {
  name: string;
  description?: string;
}

export async function createFolder(input: FolderInput): Promise<FolderItem> {
  return normalizeFolder(
    await api.post('/folders/', { name: input.name.trim(), description: input.description ?? '' }, folderSchema),
  );
}

export async function updateFolder(id: number, input: FolderInput): Promise<FolderItem> {
  return normalizeFolder(
    await api.put(`/folders/${id}/`, { name: input.name.trim(), description: input.description ?? '' }, folderSchema),
  );
}

/** Deletes a folder; its images move to `target` (or to no folder), or are deleted with it. One atomic call. */
export async function deleteFolder(
  id: number,
  images: { action: 'move'; target: number | null } | { action: 'delete' },
): Promise<void> {
  await api.delete(
    `/folders/${id}/`,
    images.action === 'move' ? { images: 'move', target: images.target } : { images: 'delete' },
  );
}

/** Moves images into a folder, or to no folder when `folderId` is null. Returns how many moved. */
export async function moveImages(folderId: number | null, imageIds: number[]): Promise<number> {
  const res = await api.post<{ moved?: number }>(
    `/folders/${folderId ?? 'none'}/add_images/`,
    { image_ids: imageIds },
    movedSchema,
  );
  return typeof res?.moved === 'number' ? res.moved : imageIds.length;
}

export async function invalidateLibrary(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: FOLDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: IMAGES_KEY }),
  ]);
}

/** A folder name is required and must not be blank (spec section 5). */
export function isBlankName(name: string | undefined | null): boolean {
  return !name || name.trim() === '';
}
