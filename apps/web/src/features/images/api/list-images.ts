import { keepPreviousData, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { imageGroupsSchema, imageListSchema } from '@cassavascope/contract';
import { ApiError, api, listCount, listResults } from '../../../lib/api-client';
import { IMAGES_KEY } from '../../../lib/folders-api';
import { normalizeImage, type ImageItem } from '../../../lib/normalize-image';
import { metaParams, type MetadataFilterValue } from '../../../lib/metadata-params';

export type SortField = 'date' | 'name' | 'folder' | 'size';
export type SortDirection = 'asc' | 'desc';
/** `all`, `none` (uncategorised) or a folder id. */
export type FolderFilter = 'all' | 'none' | number;
/** Every photo, only those with painted labels, or only those without (`has_labels`, issue 23). */
export type LabelledFilter = 'all' | 'labelled' | 'unlabelled';
export const LABELLED_FILTERS: readonly LabelledFilter[] = ['all', 'labelled', 'unlabelled'];

export interface ImageListParams {
  folder: FolderFilter;
  search: string;
  sort: SortField;
  direction: SortDirection;
  /** a sample field's value (`meta.FIELD=VALUE`), or none */
  meta?: MetadataFilterValue;
  /** a sample field to group by (`group_by=FIELD`: the list goes value by value, `sort` inside each), or none */
  groupBy?: string | null;
  /** photos with painted labels, without, or all (`has_labels`) */
  labelled?: LabelledFilter;
}

/** The `has_labels` query parameter of a labelled filter (absent for all photos). */
export function hasLabelsParam(labelled: LabelledFilter | undefined): boolean | undefined {
  return labelled === 'labelled' ? true : labelled === 'unlabelled' ? false : undefined;
}

/** One page of the server's list; small enough to answer fast at 100 000 images, large enough to scroll far. */
export const IMAGE_PAGE_SIZE = 200;

const ORDERING_FIELD: Record<SortField, string> = {
  date: 'created_time',
  name: 'name',
  folder: 'folder',
  size: 'size',
};

export function orderingOf(sort: SortField, direction: SortDirection): string {
  return `${direction === 'desc' ? '-' : ''}${ORDERING_FIELD[sort]}`;
}

export interface ImagePage {
  images: ImageItem[];
  count: number;
  facets: { all: number; uncategorized: number } | null;
  hasNext: boolean;
}

export async function fetchImagePage(params: ImageListParams, page: number, signal: AbortSignal): Promise<ImagePage> {
  const data = await api.get(
    '/images/',
    {
      folder: params.folder === 'all' ? undefined : params.folder,
      search: params.search.trim() || undefined,
      ordering: orderingOf(params.sort, params.direction),
      ...metaParams(params.meta ?? null),
      has_labels: hasLabelsParam(params.labelled),
      group_by: params.groupBy || undefined,
      page,
      page_size: IMAGE_PAGE_SIZE,
    },
    signal,
    imageListSchema,
  );
  const images = listResults(data).map(normalizeImage);
  const raw = (data && typeof data === 'object' ? data : {}) as {
    next?: unknown;
    facets?: { all?: unknown; uncategorized?: unknown };
  };
  const count = listCount(data);
  const facets =
    raw.facets && typeof raw.facets.all === 'number' && typeof raw.facets.uncategorized === 'number'
      ? { all: raw.facets.all, uncategorized: raw.facets.uncategorized }
      : null;
  const hasNext = Array.isArray(data) ? false : typeof raw.next === 'string' ? true : page * IMAGE_PAGE_SIZE < count;
  return { images, count, facets, hasNext };
}

/** Each sort key's natural direction, taken whenever the key changes: newest, A→Z, A→Z, largest first. */
export const NATURAL_DIRECTION: Record<SortField, SortDirection> = {
  date: 'desc',
  name: 'asc',
  folder: 'asc',
  size: 'desc',
};

/** What the screen shows when opened: all images, newest first. */
export const DEFAULT_LIST_PARAMS: ImageListParams = {
  folder: 'all',
  search: '',
  sort: 'date',
  direction: 'desc',
  meta: null,
  groupBy: null,
  labelled: 'all',
};

const listOptions = (params: ImageListParams) => ({
  queryKey: [...IMAGES_KEY, 'list', params],
  queryFn: ({ pageParam, signal }: { pageParam: number; signal: AbortSignal }) =>
    fetchImagePage(params, pageParam, signal),
  initialPageParam: 1,
  getNextPageParam: (last: ImagePage, _all: ImagePage[], lastPage: number) => (last.hasNext ? lastPage + 1 : undefined),
});

/** Server-side search, sort, filter and paging; pages load as the grid scrolls (endReached). */
export function useImageList(params: ImageListParams) {
  return useInfiniteQuery({ ...listOptions(params), placeholderData: keepPreviousData });
}

/** One page of a list fetched on its own (the preview's far images, the grid's rows scrolled or jumped to). */
export function imagePageQuery(params: ImageListParams, page: number) {
  return {
    queryKey: [...IMAGES_KEY, 'page', params, page],
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchImagePage(params, page, signal),
    staleTime: 30_000,
  };
}

/**
 * Image number `index` (0-based) of a list: from the pages the grid has loaded, else from the page of
 * IMAGE_PAGE_SIZE that holds it, fetched on its own with the same filter and order (the preview's wrap-around
 * from the first image to the true last one, without loading every page in between).
 */
export function useImageAt(params: ImageListParams, index: number | null, loaded: ImageItem[]) {
  const outside = index !== null && index >= loaded.length;
  const page = index === null ? 1 : Math.floor(index / IMAGE_PAGE_SIZE) + 1;
  const query = useQuery({ ...imagePageQuery(params, page), enabled: outside });
  if (index === null) return { image: undefined, loading: false };
  if (!outside) return { image: loaded[index], loading: false };
  return {
    image: query.data?.images[index % IMAGE_PAGE_SIZE],
    loading: query.isPending && query.fetchStatus !== 'idle',
  };
}

/**
 * Warms the first page of the default view, grouped and filtered by labels as last time (called by the shell
 * when the browser is idle).
 */
export function prefetchImageList(
  queryClient: QueryClient,
  saved: Pick<ImageListParams, 'groupBy' | 'labelled'>,
): void {
  void queryClient.prefetchInfiniteQuery(listOptions({ ...DEFAULT_LIST_PARAMS, ...saved }));
}

/**
 * One run of the listing (`GET /images/groups/`): a group key, its image count and its first image's position.
 * Grouped by a field, the key is the value as text, "" for the images without the field.
 */
export interface ImageGroup {
  key: string;
  count: number;
  start: number;
}

/**
 * The groups of the whole filtered library (issue 15 item 3): headers count every image of their group, and the
 * quick-jump index knows every group, not only those of the pages loaded. Null when the server has no such
 * endpoint (another backend): the screen then groups what it has loaded.
 */
export async function fetchImageGroups(
  params: ImageListParams,
  grouping: string,
  signal?: AbortSignal,
): Promise<ImageGroup[] | null> {
  try {
    const data = await api.get<{ groups?: unknown }>(
      '/images/groups/',
      {
        folder: params.folder === 'all' ? undefined : params.folder,
        search: params.search.trim() || undefined,
        ordering: orderingOf(params.sort, params.direction),
        ...metaParams(params.meta ?? null),
        has_labels: hasLabelsParam(params.labelled),
        group_by: params.groupBy || undefined,
        grouping,
      },
      signal,
      imageGroupsSchema,
    );
    return Array.isArray(data?.groups) ? (data.groups as ImageGroup[]) : null;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) return null;
    throw err;
  }
}

export function useImageGroups(params: ImageListParams, grouping: string) {
  return useQuery({
    queryKey: [...IMAGES_KEY, 'groups', params, params.sort === 'date' && !params.groupBy ? grouping : null],
    queryFn: ({ signal }) => fetchImageGroups(params, grouping, signal),
    placeholderData: keepPreviousData,
  });
}
