import { App, Button, Empty, Spin } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { EmptyState } from '../../../lib/empty-state';
import { LoadErrorState } from '../../../lib/load-error-state';
import type { ImageItem } from '../../../lib/normalize-image';
import type { ImageGroup, SortDirection, SortField } from '../api/list-images';
import {
  buildRows,
  groupKeyOf,
  knownGroupKeys,
  layoutRows,
  spreadKeys,
  type BrowserRow,
  type DateGrouping,
} from '../image-groups';
import { ImageCard, ImageCardPlaceholder } from './image-card';
import { ImageListRow, ImageListRowPlaceholder } from './image-list-row';
import { QuickJumpIndex } from './quick-jump-index';

export type ViewMode = 'grid' | 'list';
export type EmptyKind = 'library' | 'search' | 'filter' | 'folder' | 'uncategorized';

interface Props {
  /** Changes with the filter and sort: the list starts again from the top. */
  listKey: string;
  images: ImageItem[];
  total: number;
  view: ViewMode;
  sort: SortField;
  direction: SortDirection;
  dateGrouping: DateGrouping;
  /** a sample field the list is grouped by (one header per value, "no value" last), or null: by the sort */
  groupBy: string | null;
  folderNames: Map<number, string>;
  selected: ReadonlySet<number>;
  loading: boolean;
  /** The failure of the first load, when there is no earlier list to keep showing. */
  loadError: unknown;
  onRetry: () => void;
  retrying: boolean;
  /**
   * What an empty list means: nothing uploaded yet, no match for the search, no match for the filters (labels,
   * a sample field; with or without a search), or an empty folder filter.
   */
  emptyKind: EmptyKind;
  search: string;
  onClearSearch: () => void;
  /** clears the search and every filter but the folder */
  onClearFilters: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
  /**
   * The groups of the whole filtered library (`GET /images/groups/`), null while unknown or unsupported. With
   * them every row is laid out at once (placeholders until loaded); without, only what is loaded is shown.
   */
  groups: ImageGroup[] | null;
  /** the image at a position of the whole list, undefined while its page is not loaded */
  imageAt: (position: number) => ImageItem | undefined;
  /** images loaded so far (the footer's count) */
  loadedCount: number;
  /** rows of positions first..last are in view (their pages should load) */
  onShow: (first: number, last: number) => void;
}

/** Smallest card width (smaller on phones, for two columns); the grid fits as many columns as the width allows. */
const CARD_MIN_WIDTH = 190;
const CARD_MIN_WIDTH_PHONE = 140;
const GRID_GAP = 14;
/** Without the server's groups, at most this many extra pages are loaded to reach a quick-jump group. */
const JUMP_PAGE_LIMIT = 50;
/** A field's values in the index at most (a field with a value per photo would give thousands of buttons). */
const INDEX_KEYS_MAX = 300;
/** Rows in view ask for their pages at most this often while scrolling (a fling does not load every page it passes). */
const SHOW_EVERY_MS = 150;

/** Defined once (not per render) so Virtuoso keeps its footer mounted; the changing bits come via `context`. */
interface FooterContext {
  loadingMore: boolean;
  text: string;
}
const VIRTUOSO_COMPONENTS = {
  Footer: ({ context }: { context?: FooterContext }) => (
    <div className="image-browser-more">{context?.loadingMore ? <Spin /> : context?.text}</div>
  ),
};

function useColumns(ref: React.RefObject<HTMLDivElement | null>, view: ViewMode): number | null {
  const [width, setWidth] = useState<number | null>(null);
  // Measured before the first paint, so the grid is not rendered once with a wrong column count.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => setWidth(entries[0]?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  if (width === null) return null;
  if (view === 'list') return 1;
  // The width measured is the grid's own: the index strip sits beside it.
  const min = width < 560 ? CARD_MIN_WIDTH_PHONE : CARD_MIN_WIDTH;
  return Math.max(1, Math.floor((width + GRID_GAP) / (min + GRID_GAP)));
}

/**
 * The virtualised image area: only the rows on screen are in the DOM, and the next server page loads when the
 * end is reached, so 100 000 images scroll like 100. Group headers follow the sort; the right-hand index jumps
 * to a group with a smooth scroll.
 */
export function ImageBrowser(props: Props) {
  const { t, i18n } = useTranslation('images');
  const { message } = App.useApp();
  const { images, view, sort, direction, dateGrouping, groupBy, folderNames, selected, onToggle, onOpen } = props;
  const { imageAt, onShow } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const virtuoso = useRef<VirtuosoHandle>(null);
  const measured = useColumns(containerRef, view);
  const columns = measured ?? 1;
  const keyOf = useCallback(
    (img: ImageItem) => groupKeyOf(img, sort, dateGrouping, groupBy),
    [sort, dateGrouping, groupBy],
  );
  const loaded = useMemo(() => buildRows(images, columns, keyOf), [images, columns, keyOf]);
  const { groups } = props;
  // With the server's groups, every row of the library; else the rows of what is loaded.
  const laidOut = useMemo(() => (groups ? layoutRows(groups, columns) : null), [groups, columns]);
  const rows = laidOut?.rows ?? loaded.rows;
  const groupStart = laidOut?.groupStart ?? loaded.groupStart;
  const groupOrder = loaded.groupOrder;
  const [pendingJump, setPendingJump] = useState<string | null>(null);
  // The server's groups in list order: each key's first position.
  const serverGroups = useMemo(() => {
    if (!groups) return null;
    const starts = new Map<string, number>();
    for (const g of groups) if (!starts.has(g.key)) starts.set(g.key, g.start);
    return starts;
  }, [groups]);

  const groupLabel = useCallback(
    (key: string): string => {
      if (groupBy) return key === '' ? t('group_no_value') : key;
      if (key === '--') return '--';
      if (sort === 'folder')
        return key === 'none' ? t('uncategorized') : (folderNames.get(Number(key.slice(7))) ?? key);
      if (sort === 'date') {
        const locale = i18n.language === 'zh' ? 'zh-CN' : 'en-US';
        const date = new Date(`${key.length === 4 ? `${key}-01-01` : key.length === 7 ? `${key}-01` : key}T00:00:00Z`);
        const options: Intl.DateTimeFormatOptions =
          dateGrouping === 'year'
            ? { year: 'numeric', timeZone: 'UTC' }
            : dateGrouping === 'month'
              ? { year: 'numeric', month: 'long', timeZone: 'UTC' }
              : { dateStyle: 'full', timeZone: 'UTC' };
        return new Intl.DateTimeFormat(locale, options).format(date);
      }
      return key;
    },
    [sort, dateGrouping, groupBy, folderNames, t, i18n.language],
  );
  // A header names the field with its value ("Genotype: TME419"); the index strip shows values only.
  const headerLabel = useCallback(
    (key: string): string =>
      groupBy
        ? t('group_field_value', {
            field: t(`samples:field.${groupBy}`, { defaultValue: groupBy }),
            value: groupLabel(key),
          })
        : groupLabel(key),
    [groupBy, groupLabel, t],
  );

  const indexLabel = useCallback(
    (key: string): string => {
      if (groupBy) return groupLabel(key);
      // Day keys show month-day under a year heading (indexMarker); months and years read in full (2026-03).
      if (sort === 'date') return dateGrouping === 'day' && key.length === 10 ? key.slice(5) : key;
      if (sort === 'folder') return groupLabel(key);
      return key;
    },
    [sort, dateGrouping, groupBy, groupLabel],
  );
  const indexMarker = useCallback(
    (key: string, previous: string | undefined): string | null => {
      if (groupBy || sort !== 'date' || dateGrouping !== 'day' || key.length !== 10) return null;
      const year = key.slice(0, 4);
      return previous?.slice(0, 4) === year ? null : year;
    },
    [sort, dateGrouping, groupBy],
  );
  const indexVariant = groupBy || sort === 'folder' ? 'wide' : sort === 'name' ? 'narrow' : 'medium';
  // Size buckets are known before the groups are (an empty one disabled); not when grouped by a field.
  const knownKeys = useMemo(() => (groupBy ? [] : knownGroupKeys(sort, direction)), [groupBy, sort, direction]);

  const indexKeys = useMemo(() => {
    // Size buckets are always the seed's three (an empty one disabled); other keys are the server's groups.
    if (knownKeys.length) return knownKeys;
    const keys = serverGroups ? [...serverGroups.keys()] : groupOrder;
    return groupBy ? spreadKeys(keys, INDEX_KEYS_MAX) : keys;
  }, [knownKeys, groupOrder, serverGroups, groupBy]);

  const scrollToGroup = useCallback(
    (key: string, smooth = true) => {
      const index = groupStart.get(key);
      if (index === undefined) return false;
      // A group not loaded yet is far away: go there at once rather than scroll past (and load) every row.
      virtuoso.current?.scrollToIndex({ index, align: 'start', behavior: smooth ? 'smooth' : 'auto' });
      return true;
    },
    [groupStart],
  );

  // The rows in view load their pages, at most every SHOW_EVERY_MS, and always for where the scroll ends.
  const showTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastShown = useRef(0);
  useEffect(() => () => clearTimeout(showTimer.current), []);
  const onRange = useCallback(
    ({ startIndex, endIndex }: { startIndex: number; endIndex: number }) => {
      if (!laidOut) return;
      const show = () => {
        lastShown.current = performance.now();
        let first = Number.POSITIVE_INFINITY;
        let last = -1;
        for (let i = Math.max(0, startIndex); i <= endIndex && i < rows.length; i++) {
          const row = rows[i];
          if (row?.kind !== 'slots') continue;
          first = Math.min(first, row.first);
          last = Math.max(last, row.first + row.length - 1);
        }
        if (last >= 0) onShow(first, last);
      };
      clearTimeout(showTimer.current);
      const wait = SHOW_EVERY_MS - (performance.now() - lastShown.current);
      if (wait <= 0) show();
      else showTimer.current = setTimeout(show, wait);
    },
    [laidOut, rows, onShow],
  );

  // A size bucket further down than the loaded pages: load pages until it appears, then jump. Capped, so a
  // bucket 60 000 images away does not pull hundreds of pages: past the cap the user is told to scroll on.
  const jumpPages = useRef(0);
  const { hasMore, loadingMore, onLoadMore } = props;
  useEffect(() => {
    if (!pendingJump) return;
    if (scrollToGroup(pendingJump, false)) setPendingJump(null);
    else if (!hasMore) setPendingJump(null);
    else if (jumpPages.current >= JUMP_PAGE_LIMIT) {
      setPendingJump(null);
      message.info(t('jump_too_far'));
    } else if (!loadingMore) {
      jumpPages.current += 1;
      onLoadMore();
    }
  }, [pendingJump, scrollToGroup, hasMore, loadingMore, onLoadMore, message, t]);

  const renderRow = (_index: number, row: BrowserRow) => {
    if (row.kind === 'header') {
      return (
        <div className="image-group-header" data-group={row.key}>
          <span>{headerLabel(row.key)}</span>
          <span className="image-group-count">{t('group_count', { count: row.count })}</span>
        </div>
      );
    }
    const items =
      row.kind === 'images' ? row.items : Array.from({ length: row.length }, (_, i) => imageAt(row.first + i));
    if (view === 'list') {
      const img = items[0];
      if (!img) return <ImageListRowPlaceholder />;
      return (
        <ImageListRow
          image={img}
          folderName={img.folderId === null ? t('uncategorized') : (folderNames.get(img.folderId) ?? '--')}
          selected={selected.has(img.id)}
          onToggle={onToggle}
          onOpen={onOpen}
        />
      );
    }
    return (
      <div className="image-grid-row" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {items.map((img, i) =>
          img ? (
            <ImageCard
              key={img.id}
              image={img}
              selected={selected.has(img.id)}
              onToggle={onToggle}
              onOpen={onOpen}
              lang={i18n.language}
            />
          ) : (
            <ImageCardPlaceholder key={`p${row.first + i}`} />
          ),
        )}
      </div>
    );
  };

  return (
    <div className="image-browser" data-testid="image-browser" data-view={view}>
      <div className="image-browser-body" ref={containerRef}>
        {measured === null ? null : props.loading && images.length === 0 ? (
          <div className="image-browser-state">
            <Spin size="large" />
          </div>
        ) : props.loadError ? (
          <div className="image-browser-state">
            <LoadErrorState
              error={props.loadError}
              onRetry={props.onRetry}
              retrying={props.retrying}
              testId="images-error"
            />
          </div>
        ) : images.length === 0 ? (
          <div className="image-browser-state">
            {props.emptyKind === 'search' ? (
              <EmptyState
                testId="images-empty"
                data-empty={props.emptyKind}
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                title={t('empty_search', { search: props.search.trim() })}
                hint={t('empty_search_hint')}
              >
                <Button onClick={props.onClearSearch}>{t('clear_search')}</Button>
              </EmptyState>
            ) : props.emptyKind === 'filter' ? (
              <EmptyState
                testId="images-empty"
                data-empty={props.emptyKind}
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                title={t('empty_filter')}
                hint={t('empty_filter_hint')}
              >
                <Button onClick={props.onClearFilters} data-testid="clear-filters">
                  {t('clear_filters')}
                </Button>
              </EmptyState>
            ) : (
              <Empty
                data-testid="images-empty"
                data-empty={props.emptyKind}
                description={t(
                  props.emptyKind === 'folder'
                    ? 'empty_folder'
                    : props.emptyKind === 'uncategorized'
                      ? 'empty_uncategorized'
                      : 'empty',
                )}
              />
            )}
          </div>
        ) : (
          <Virtuoso
            key={props.listKey}
            ref={virtuoso}
            className="image-virtuoso"
            data={rows}
            computeItemKey={(_i, row) =>
              row.kind === 'header'
                ? `h:${row.key}:${row.count}:${row.first}`
                : `r:${row.first}:${row.kind === 'images' ? row.items.length : row.length}:${columns}`
            }
            itemContent={renderRow}
            endReached={() => {
              // With every row laid out, pages load for the rows in view instead (onRange).
              if (!laidOut && props.hasMore && !props.loadingMore) props.onLoadMore();
            }}
            rangeChanged={onRange}
            increaseViewportBy={{ top: 300, bottom: 600 }}
            context={{
              loadingMore: props.loadingMore,
              text: t('loaded_of', { loaded: props.loadedCount, total: props.total }),
            }}
            components={VIRTUOSO_COMPONENTS}
          />
        )}
      </div>
      {measured !== null && images.length > 0 && !props.loadError ? (
        <QuickJumpIndex
          keys={indexKeys}
          label={indexLabel}
          title={headerLabel}
          available={(k) =>
            groupStart.has(k) || (props.hasMore && (serverGroups ? serverGroups.has(k) : knownKeys.includes(k)))
          }
          onJump={(k) => {
            jumpPages.current = 0;
            // Laid out from the server's groups, every group has its rows: smooth when its first image is
            // loaded (near), at once otherwise; its page loads when it is in view.
            const start = serverGroups?.get(k);
            if (scrollToGroup(k, laidOut ? start !== undefined && imageAt(start) !== undefined : true)) return;
            setPendingJump(k);
          }}
          marker={indexMarker}
          variant={indexVariant}
        />
      ) : null}
    </div>
  );
}
