import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { imageListSchema } from '@cassavascope/contract';
import { api, listCount, listResults } from '../../../lib/api-client';
import { fetchImageRefs, type ImageRef } from '../../../lib/image-refs';
import { normalizeImage, type ImageItem } from '../../../lib/normalize-image';

/** What the checklist shows: a folder (id, 'none' or all), a name search and one of the spec's three sorts. */
export type ImageSort = 'date' | 'name' | 'size';
export interface ImageFilter {
  folder: number | 'none' | null;
  search: string;
  sort: ImageSort;
}

/** Newest first, A to Z, largest first: the natural direction of each sort. */
const ORDERING: Record<ImageSort, string> = { date: '-created_time', name: 'name', size: '-size' };

/** Rows per request of the virtualised checklist. */
export const IMAGE_PAGE_SIZE = 100;

export interface ImagePage {
  count: number;
  /** the whole library (facets.all), whatever the filter */
  libraryCount: number;
  /** uncategorised images of the whole library (facets.uncategorized), null when the server sends no facets */
  uncategorizedCount: number | null;
  items: ImageItem[];
}

function query(filter: ImageFilter, page: number, pageSize: number) {
  return {
    folder: filter.folder ?? undefined,
    search: filter.search.trim() || undefined,
    ordering: ORDERING[filter.sort],
    page,
    page_size: pageSize,
  };
}

export async function getPredictionImages(filter: ImageFilter, page: number, signal?: AbortSignal): Promise<ImagePage> {
  const data = await api.get('/images/', query(filter, page, IMAGE_PAGE_SIZE), signal, imageListSchema);
  const facets = (data as { facets?: { all?: unknown; uncategorized?: unknown } } | null)?.facets;
  return {
    count: listCount(data),
    libraryCount: typeof facets?.all === 'number' ? facets.all : listCount(data),
    uncategorizedCount: typeof facets?.uncategorized === 'number' ? facets.uncategorized : null,
    items: listResults(data).map(normalizeImage),
  };
}

export const predictionImagesKey = (filter: ImageFilter, page: number) =>
  ['prediction', 'images', filter, page] as const;

/**
 * One page of the checklist; rows ask for the page they sit on, so only what is on screen is loaded. Rows use the
 * cache as it is; the screen's own observers pass `fresh` so each visit asks the server (images change elsewhere).
 */
export function usePredictionImages(filter: ImageFilter, page: number, fresh = false) {
  return useQuery({
    queryKey: predictionImagesKey(filter, page),
    queryFn: ({ signal }) => getPredictionImages(filter, page, signal),
    placeholderData: page === 1 ? keepPreviousData : undefined,
    refetchOnMount: fresh ? 'always' : true,
  });
}

/** Every image of the filter (id and folder), for "select all". */
export async function getAllImageRefs(client: QueryClient, filter: ImageFilter): Promise<ImageRef[]> {
  return client.fetchQuery({
    queryKey: ['prediction', 'image-refs', filter],
    staleTime: 5_000,
    queryFn: ({ signal }) => fetchImageRefs({ folder: filter.folder ?? undefined, search: filter.search }, signal),
  });
}
