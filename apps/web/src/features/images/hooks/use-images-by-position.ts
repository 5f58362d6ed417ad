import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { ImageItem } from '../../../lib/normalize-image';
import { IMAGE_PAGE_SIZE, imagePageQuery, type ImageListParams, type ImagePage } from '../api/list-images';

/**
 * The images of the filtered library by position (issue 15 item 3). The screen's list holds the first pages;
 * any other page is fetched on its own once rows of it come into view (`show`). With the server's groups the grid
 * lays out every row up front (placeholders where nothing is loaded yet), so a jump to a far group costs that
 * group's page or two, not every page before it.
 */
export function useImagesByPosition(params: ImageListParams, listPages: ImagePage[]) {
  const paramsKey = JSON.stringify(params);
  // Pages asked for under the current filter and order; a new filter starts again.
  const [wanted, setWanted] = useState<{ key: string; pages: number[] }>({ key: paramsKey, pages: [] });
  const pages = useMemo(() => (wanted.key === paramsKey ? wanted.pages : []), [wanted, paramsKey]);
  const results = useQueries({ queries: pages.map((n) => imagePageQuery(params, n)) });
  const signature = results.map((r) => r.dataUpdatedAt).join(',');
  // `results` is a new array each render; what it holds changes with `signature`.
  const byPage = useMemo(
    () => new Map(pages.flatMap((n, i) => (results[i]?.data ? [[n, results[i].data.images] as const] : []))),
    [pages, signature],
  );

  const pageOf = useCallback(
    (n: number): ImageItem[] | undefined => listPages[n - 1]?.images ?? byPage.get(n),
    [listPages, byPage],
  );

  /** The image at `position` (0-based), or undefined while its page is not loaded. */
  const imageAt = useCallback(
    (position: number) => pageOf(Math.floor(position / IMAGE_PAGE_SIZE) + 1)?.[position % IMAGE_PAGE_SIZE],
    [pageOf],
  );

  /** The images loaded from the top without a gap (what the preview and the selection count on). */
  const leading = useMemo(() => {
    const out: ImageItem[] = [];
    for (let n = 1; ; n++) {
      const page = pageOf(n);
      if (!page) break;
      out.push(...page);
      if (page.length < IMAGE_PAGE_SIZE) break;
    }
    return out;
  }, [pageOf]);

  /** How many images are loaded, with gaps. */
  const loadedCount = useMemo(() => {
    let n = listPages.reduce((sum, p) => sum + p.images.length, 0);
    for (const [page, images] of byPage) if (page > listPages.length) n += images.length;
    return n;
  }, [listPages, byPage]);

  /** Rows of positions `first`..`last` are in view: fetch the pages they need that are not loaded or asked for yet. */
  const show = useCallback(
    (first: number, last: number) => {
      const from = Math.floor(first / IMAGE_PAGE_SIZE) + 1;
      const to = Math.floor(last / IMAGE_PAGE_SIZE) + 1;
      setWanted((prev) => {
        const have = prev.key === paramsKey ? prev.pages : [];
        const add: number[] = [];
        for (let n = from; n <= to; n++) if (n > listPages.length && !have.includes(n)) add.push(n);
        return add.length === 0 && prev.key === paramsKey ? prev : { key: paramsKey, pages: [...have, ...add] };
      });
    },
    [paramsKey, listPages.length],
  );

  return { imageAt, leading, loadedCount, show };
}
