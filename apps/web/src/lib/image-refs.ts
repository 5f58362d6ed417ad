import { imageListSchema, PAGE_SIZE_MAX } from '@cassavascope/contract';
import { api, listCount, listResults } from './api-client';
import { normalizeImage } from './normalize-image';

/** Which images: a folder (id, 'none' for uncategorised, absent for all), a name search, fields and labels. */
export interface ImageRefFilter {
  folder?: number | 'none' | undefined;
  search?: string | undefined;
  /** `meta.FIELD=VALUE` parameters (lib/metadata-filter.ts `metaParams`) */
  meta?: Record<string, string> | undefined;
  /** only images with painted labels (true) or without (false) */
  hasLabels?: boolean | undefined;
}

export interface ImageRef {
  id: number;
  folderId: number | null;
}

/**
 * Every image of a filter (id and folder), for "select all" on a screen that shows only what is
 * scrolled into view: pages of the largest size the API allows, in a stable order.
 */
export async function fetchImageRefs(filter: ImageRefFilter, signal?: AbortSignal): Promise<ImageRef[]> {
  const refs: ImageRef[] = [];
  for (let page = 1; ; page++) {
    const data = await api.get(
      '/images/',
      {
        folder: filter.folder,
        search: filter.search?.trim() || undefined,
        ...filter.meta,
        has_labels: filter.hasLabels,
        ordering: '-created_time',
        page,
        page_size: PAGE_SIZE_MAX,
      },
      signal,
      imageListSchema,
    );
    const items = listResults(data).map(normalizeImage);
    for (const image of items) refs.push({ id: image.id, folderId: image.folderId });
    if (items.length < PAGE_SIZE_MAX || refs.length >= listCount(data)) return refs;
  }
}
