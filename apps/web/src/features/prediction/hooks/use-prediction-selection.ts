import { useCallback, useMemo, useState } from 'react';
import type { FolderItem } from '../../../lib/normalize-folder';

export interface ImageRef {
  id: number;
  folderId: number | null;
}

/**
 * What the user picked: single images (remembering their folder) and whole folders. The task is created with
 * image_ids and/or folder_ids; the estimate counts each image once (an image picked inside a picked folder is
 * not counted twice).
 */
export function usePredictionSelection(folders: FolderItem[]) {
  const [images, setImages] = useState<Map<number, number | null>>(() => new Map());
  const [folderIds, setFolderIds] = useState<Set<number>>(() => new Set());

  const toggleImage = useCallback((ref: ImageRef, selected: boolean) => {
    setImages((prev) => {
      const next = new Map(prev);
      if (selected) next.set(ref.id, ref.folderId);
      else next.delete(ref.id);
      return next;
    });
  }, []);

  const setManyImages = useCallback((refs: ImageRef[], selected: boolean) => {
    setImages((prev) => {
      const next = new Map(prev);
      for (const ref of refs) {
        if (selected) next.set(ref.id, ref.folderId);
        else next.delete(ref.id);
      }
      return next;
    });
  }, []);

  const toggleFolder = useCallback((id: number, selected: boolean) => {
    setFolderIds((prev) => {
      const next = new Set(prev);
      if (selected) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const clear = useCallback(() => {
    setImages(new Map());
    setFolderIds(new Set());
  }, []);

  const estimatedImages = useMemo(() => {
    let total = 0;
    for (const folder of folders) if (folderIds.has(folder.id)) total += folder.imageCount;
    for (const folderId of images.values()) if (folderId === null || !folderIds.has(folderId)) total += 1;
    return total;
  }, [folders, folderIds, images]);

  /** images picked one by one outside the folders picked whole */
  const looseImageCount = useMemo(
    () => [...images.values()].filter((folderId) => folderId === null || !folderIds.has(folderId)).length,
    [folderIds, images],
  );

  return {
    imageIds: useMemo(() => [...images.keys()], [images]),
    looseImageCount,
    folderIds: useMemo(() => [...folderIds], [folderIds]),
    isImageSelected: (id: number) => images.has(id),
    isFolderSelected: (id: number) => folderIds.has(id),
    imageCount: images.size,
    folderCount: folderIds.size,
    /** images and folders picked */
    selectedCount: images.size + folderIds.size,
    estimatedImages,
    toggleImage,
    setManyImages,
    toggleFolder,
    clear,
  };
}

export type PredictionSelection = ReturnType<typeof usePredictionSelection>;
