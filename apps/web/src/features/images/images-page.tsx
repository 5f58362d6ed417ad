import { useQueryClient } from '@tanstack/react-query';
import { App, Grid, Select } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_LIST_PARAMS,
  NATURAL_DIRECTION,
  prefetchImageList,
  useImageGroups,
  useImageList,
  type FolderFilter,
  hasLabelsParam,
  type SortDirection,
  type SortField,
} from './api/list-images';
import type { QueryClient } from '@tanstack/react-query';
import { fetchAllFolders, FOLDERS_KEY, invalidateLibrary, moveImages, useFolders } from '../../lib/folders-api';
import { fetchImageRefs } from '../../lib/image-refs';
import { useHandOver } from '../../lib/hand-over';
import { deleteImages } from './api/delete-images';
import { ImageBrowser, type EmptyKind, type ViewMode } from './components/image-browser';
import { ImagePreview } from './components/image-preview';
import { ImagesSidebar } from './components/images-sidebar';
import { ImagesToolbar } from './components/images-toolbar';
import { DuplicateDialog } from './components/duplicate-dialog';
import { MoveDialog } from './components/move-dialog';
import { UploadProgressDialog } from './components/upload-progress-dialog';
import { UploadSettingsDialog, type UploadMode } from './components/upload-settings-dialog';
import { useImagesByPosition } from './hooks/use-images-by-position';
import { useUpload } from './hooks/use-upload';
import { loadGrouping, useImagesGrouping } from './hooks/use-images-grouping';
import { loadLabelled, useImagesLabelled } from './hooks/use-images-labelled';
import './images.css';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-live-search';
import { MetadataFilter } from '../../lib/metadata-filter';
import { metaParams, type MetadataFilterValue } from '../../lib/metadata-params';
import { EditFieldsDialog } from './components/edit-fields-dialog';

/** Called by the shell when idle: the folders and the first page of images are ready before the first visit. */
export function prefetch(queryClient: QueryClient): void {
  prefetchImageList(queryClient, { groupBy: loadGrouping().groupBy, labelled: loadLabelled() });
  void queryClient.prefetchQuery({ queryKey: FOLDERS_KEY, queryFn: ({ signal }) => fetchAllFolders(signal) });
}

/** Images screen (spec section 2, Images). */
export default function ImagesPage() {
  const { t } = useTranslation('images');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;

  // A folder card (Folders) or the sample set (Home) may hand over the folder to open on.
  const handedFolder = useHandOver('imagesFolder');
  const [folder, setFolder] = useState<FolderFilter>(() => handedFolder ?? DEFAULT_LIST_PARAMS.folder);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortField>(DEFAULT_LIST_PARAMS.sort);
  const [direction, setDirection] = useState<SortDirection>(DEFAULT_LIST_PARAMS.direction);
  const [{ groupBy, dateGrouping }, setGrouping] = useImagesGrouping();
  // Kept across a reload like the grouping: a lab goes back to the photos it is painting.
  const [labelled, setLabelled] = useImagesLabelled();
  const [view, setView] = useState<ViewMode>('grid');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [uploadMode, setUploadMode] = useState<UploadMode | null>(null);
  const [moveOpen, setMoveOpen] = useState(false);
  const [moving, setMoving] = useState(false);
  const [selectingAll, setSelectingAll] = useState(false);
  const [meta, setMeta] = useState<MetadataFilterValue>(null);
  const [editing, setEditing] = useState<number[] | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchInput), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);

  const folders = useFolders();
  // A field without a value yet filters nothing (and keeps the list's cache key as it was).
  const metaField = meta?.value ? meta.field : null;
  const metaValue = meta?.value || null;
  const metaFilter = useMemo(
    () => (metaField && metaValue ? { field: metaField, value: metaValue } : null),
    [metaField, metaValue],
  );
  const listParams = useMemo(
    () => ({ folder, search, sort, direction, meta: metaFilter, groupBy, labelled }),
    [folder, search, sort, direction, metaFilter, groupBy, labelled],
  );
  const list = useImageList(listParams);
  const groups = useImageGroups(listParams, dateGrouping);
  const listPages = useMemo(() => list.data?.pages ?? [], [list.data]);
  const byPosition = useImagesByPosition(listParams, listPages);
  // The images loaded from the top without a gap (a jump may load a far page on its own).
  const images = byPosition.leading;
  // The server's groups lay out every row; only when they belong to the list shown (not a previous filter's).
  const layoutGroups = groups.data && !groups.isPlaceholderData && !list.isPlaceholderData ? groups.data : null;
  const firstPage = list.data?.pages[0];
  const total = firstPage?.count ?? 0;
  const facets = firstPage?.facets ?? null;
  const folderList = folders.data ?? [];
  // The first load failed and there is no earlier list to keep: an error state, not "no images".
  const loadError = list.isError && !list.data ? list.error : null;
  // An empty list under a search or a filter is "no match", not "upload photos to get started".
  const filtering = metaFilter !== null || labelled !== 'all';
  const emptyKind: EmptyKind = filtering
    ? 'filter'
    : search.trim()
      ? 'search'
      : folder === 'none'
        ? 'uncategorized'
        : folder === 'all'
          ? 'library'
          : 'folder';
  const folderNames = useMemo(() => new Map(folderList.map((f) => [f.id, f.name])), [folderList]);

  useEffect(() => {
    if (list.isError) message.error(t('load_failed'));
  }, [list.isError, list.errorUpdatedAt, message, t]);
  useEffect(() => {
    if (folders.isError) message.error(t('load_folders_failed'));
  }, [folders.isError, folders.errorUpdatedAt, message, t]);

  // A changed filter starts a new selection: hidden images must not be moved or deleted by accident.
  const filterKey = `${folder}|${search}|${metaFilter?.field ?? ''}=${metaFilter?.value ?? ''}|${labelled}`;
  const currentFilter = useRef(filterKey);
  useEffect(() => {
    currentFilter.current = filterKey;
    setSelected(new Set());
  }, [filterKey]);

  const loadedNames = useCallback(
    (folderId: number | null) => new Set(images.filter((i) => i.folderId === folderId).map((i) => i.name)),
    [images],
  );
  const upload = useUpload(loadedNames);

  const toggle = useCallback((id: number) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const { imageAt } = byPosition;
  const openPreview = useCallback(
    (id: number) => {
      const index = images.findIndex((i) => i.id === id);
      if (index >= 0) return setPreviewIndex(index);
      // An image of a page loaded on its own (after a jump): find its position in the whole list.
      for (let p = images.length; p < total; p++) {
        if (imageAt(p)?.id === id) return setPreviewIndex(p);
      }
    },
    [images, imageAt, total],
  );
  const allSelected = total > 0 && selected.size >= total && images.every((i) => selected.has(i.id));

  /** Every image of the folder and search, also those not scrolled into view yet. */
  const selectAll = async () => {
    if (allSelected) return setSelected(new Set());
    const startedFor = filterKey;
    setSelectingAll(true);
    try {
      const refs = await fetchImageRefs({
        folder: folder === 'all' ? undefined : folder,
        search,
        meta: metaParams(metaFilter),
        hasLabels: hasLabelsParam(labelled),
      });
      // The filter changed meanwhile: that selection belongs to images no longer shown.
      if (currentFilter.current === startedFor) setSelected(new Set(refs.map((r) => r.id)));
    } catch {
      message.error(t('load_failed'));
    } finally {
      setSelectingAll(false);
    }
  };

  const confirmDelete = () => {
    const ids = [...selected];
    modal.confirm({
      title: t('delete_confirm_title'),
      content: t('delete_confirm', { count: ids.length }),
      okText: t('delete'),
      okButtonProps: { danger: true },
      cancelText: t('cancel'),
      onOk: async () => {
        const { deleted, failed } = await deleteImages(ids);
        if (deleted > 0) message.success(t('deleted_count', { count: deleted }));
        if (failed.length > 0) message.error(t('delete_failed'));
        setSelected(new Set(failed));
        await invalidateLibrary(queryClient);
      },
    });
  };

  const move = async (folderId: number | null) => {
    setMoving(true);
    try {
      const moved = await moveImages(folderId, [...selected]);
      message.success(t('moved_count', { count: moved }));
      setSelected(new Set());
      setMoveOpen(false);
    } catch {
      message.error(t('move_failed'));
    } finally {
      setMoving(false);
      await invalidateLibrary(queryClient);
    }
  };

  return (
    <div className="images-page">
      {narrow ? null : <ImagesSidebar value={folder} onChange={setFolder} facets={facets} folders={folderList} />}
      <section className="images-main">
        {narrow ? (
          <Select
            className="images-folder-select"
            value={String(folder)}
            onChange={(v: string) => setFolder(v === 'all' || v === 'none' ? v : Number(v))}
            options={[
              { value: 'all', label: `${t('all_images')} (${facets?.all ?? '–'})` },
              { value: 'none', label: `${t('uncategorized')} (${facets?.uncategorized ?? '–'})` },
              ...folderList.map((f) => ({ value: String(f.id), label: `${f.name} (${f.imageCount})` })),
            ]}
          />
        ) : null}
        <ImagesToolbar
          narrow={narrow}
          view={view}
          onView={setView}
          search={searchInput}
          onSearch={setSearchInput}
          sort={sort}
          onSort={(next) => {
            // A new key starts in its natural direction (names A→Z, not Z→A); the toggle still flips it.
            setSort(next);
            setDirection(NATURAL_DIRECTION[next]);
          }}
          direction={direction}
          onDirection={setDirection}
          dateGrouping={dateGrouping}
          onDateGrouping={(g) => setGrouping({ dateGrouping: g })}
          groupBy={groupBy}
          onGroupBy={(f) => setGrouping({ groupBy: f })}
          labelled={labelled}
          onLabelled={setLabelled}
          selectedCount={selected.size}
          allSelected={allSelected}
          selectingAll={selectingAll}
          onSelectAll={() => void selectAll()}
          onMove={() => setMoveOpen(true)}
          onEditFields={() => setEditing([...selected])}
          onDelete={confirmDelete}
          onUpload={setUploadMode}
          filter={narrow ? <MetadataFilter value={meta} onChange={setMeta} /> : null}
          filtered={filtering || groupBy !== null}
        />
        {narrow ? null : <MetadataFilter value={meta} onChange={setMeta} />}
        <EditFieldsDialog
          ids={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            message.success(t('edit_fields.saved', { count: editing?.length ?? 0 }));
            setEditing(null);
            void invalidateLibrary(queryClient);
            void queryClient.invalidateQueries({ queryKey: ['samples'] });
          }}
        />
        <div className="images-count" data-testid="images-total">
          {loadError ? '\u00a0' : t('total_count', { count: total })}
        </div>
        <ImageBrowser
          listKey={`${filterKey}|${sort}|${direction}|${groupBy ?? ''}`}
          images={images}
          total={total}
          view={view}
          sort={sort}
          direction={direction}
          dateGrouping={dateGrouping}
          groupBy={groupBy}
          folderNames={folderNames}
          selected={selected}
          loading={list.isLoading}
          loadError={loadError}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
          emptyKind={emptyKind}
          search={search}
          onClearSearch={() => {
            setSearchInput('');
            setSearch('');
          }}
          onClearFilters={() => {
            setSearchInput('');
            setSearch('');
            setMeta(null);
            setLabelled('all');
          }}
          hasMore={list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          onLoadMore={() => void list.fetchNextPage()}
          groups={layoutGroups}
          imageAt={imageAt}
          loadedCount={byPosition.loadedCount}
          onShow={byPosition.show}
          onToggle={toggle}
          onOpen={openPreview}
        />
      </section>

      <UploadSettingsDialog
        mode={uploadMode}
        folders={folderList}
        defaultFolderId={typeof folder === 'number' ? folder : null}
        onCancel={() => setUploadMode(null)}
        onFiles={(files, settings, mode) => {
          setUploadMode(null);
          void upload.start(files, settings, mode);
        }}
      />
      {/* Hidden while the duplicate question is asked: one dialog at a time (issue 15 item 12). */}
      <UploadProgressDialog
        open={upload.open && upload.duplicates === null}
        items={upload.items}
        startedAt={upload.startedAt}
        onClose={upload.close}
        sheet={upload.sheet}
        onApplyGoodRows={upload.applyGoodRows}
      />
      <DuplicateDialog
        names={upload.duplicates}
        matches={upload.matches}
        folderNames={folderNames}
        onAnswer={upload.resolveDuplicates}
      />
      <MoveDialog
        open={moveOpen}
        count={selected.size}
        folders={folderList}
        busy={moving}
        onCancel={() => setMoveOpen(false)}
        onMove={(f) => void move(f)}
      />
      <ImagePreview
        images={images}
        total={total}
        params={listParams}
        index={previewIndex}
        onIndexChange={setPreviewIndex}
        onClose={() => setPreviewIndex(null)}
      />
    </div>
  );
}
