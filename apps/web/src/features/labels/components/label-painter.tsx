import { CloseOutlined, DeleteOutlined, SaveOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, ConfigProvider, Spin, theme, Tooltip, type ButtonProps } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth';
import { errorMessage } from '../../../lib/error-message';
import { invalidateLibrary } from '../../../lib/folders-api';
import type { LabelPainterRequest } from '../../../lib/label-painter';
import { deleteLabels, fetchLabels, fetchProposal, saveLabels, type SavedLabels } from '../api/labels-api';
import { usePainterKeys } from '../hooks/use-painter-keys';
import { useView } from '../hooks/use-view';
import { gridSize } from '../label-classes';
import { decodeLabelPng, LabelLayer } from '../label-layer';
import { PainterStage, type Tool } from './painter-stage';
import { MAX_RADIUS, MIN_RADIUS, PainterToolbar } from './painter-toolbar';
import '../labels.css';

const DARK = { algorithm: theme.darkAlgorithm };

interface Props {
  request: LabelPainterRequest;
  onClose: () => void;
}

interface Loaded {
  layer: LabelLayer;
  photo: { width: number; height: number };
  /** the decoded photo (drawn once onto the stage's grid-sized canvas) */
  image: HTMLImageElement;
  /** the server holds labels for this photo */
  stored: boolean;
}

/** The photo, decoded; its natural size is as the browser shows it (EXIF orientation applied, as the labels). */
function loadPhoto(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('photo'));
    img.src = url;
  });
}

/**
 * Full-screen label painter (issue 23): the photo with its labels as a coloured layer, brush and eraser per
 * class, the engine's proposal to take regions from, undo/redo, zoom and pan, save and delete. Painting happens
 * on a grid of at most 2048 px (the server scales labels to the photo, nearest neighbour).
 */
export default function LabelPainter({ request, onClose }: Props) {
  const { t } = useTranslation('labels');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const { can, reason } = useCan();
  const canPaint = can('change');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  // Labelled pixels per value 0-4, recounted when the labels change (not on every render: 3 MP to walk).
  const [counts, setCounts] = useState<number[]>([0, 0, 0, 0, 0]);
  // A phone opens on the hand (review: a finger moves the photo); painting starts once a class is picked.
  const [tool, setTool] = useState<Tool>(() =>
    window.matchMedia?.('(max-width: 767px), (pointer: coarse)').matches ? 'hand' : 'brush',
  );
  const [value, setValue] = useState(2);
  // The eraser clears every class, or only the one chosen beside it.
  const [eraseOnly, setEraseOnly] = useState<number | null>(null);
  const [radius, setRadius] = useState(12);
  const [showProposal, setShowProposal] = useState(false);
  const [proposalLoading, setProposalLoading] = useState(false);
  const [labelOpacity, setLabelOpacity] = useState(0.55);
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);
  // What the server counted at the last save (the test and a curious researcher read it from the DOM).
  const [serverCounts, setServerCounts] = useState<SavedLabels['counts'] | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const spaceHeld = useRef(false);
  const confirming = useRef(false);
  const root = useRef<HTMLDivElement>(null);
  // Focus moves into the painter, so keys (Space, Enter) do not act on the button that opened it.
  useEffect(() => root.current?.focus(), []);
  const layer = loaded?.layer ?? null;
  const grid = useMemo(() => (layer ? { width: layer.grid.width, height: layer.grid.height } : null), [layer]);
  const view = useView(viewport, stage, grid);

  useEffect(() => {
    const controller = new AbortController();
    let created: LabelLayer | null = null;
    setLoaded(null);
    setLoadError(null);
    (async () => {
      const image = await loadPhoto(request.url);
      const photo = { width: image.naturalWidth, height: image.naturalHeight };
      const size = gridSize(photo.width, photo.height);
      const blob = await fetchLabels(request.imageId, controller.signal);
      const data = blob ? await decodeLabelPng(blob, size.width, size.height) : null;
      if (controller.signal.aborted) return;
      created = new LabelLayer(size.width, size.height);
      const layerNow = created;
      created.onChange = () => setCounts(layerNow.counts());
      if (data) created.load(data);
      setLoaded({ layer: created, photo, image, stored: blob !== null });
    })().catch((err: unknown) => {
      if (controller.signal.aborted) return;
      setLoadError(err ?? new Error('load'));
    });
    return () => {
      controller.abort();
      created?.dispose();
    };
  }, [request.imageId, request.url]);

  // Fit once the stage has its size, and again when the window changes size.
  useEffect(() => {
    if (!grid) return;
    view.fit();
    const onResize = () => view.fit();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [grid, view.fit]);

  // Changes not saved: the browser asks before the page is left.
  const unsaved = layer?.unsaved ?? false;
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  const close = useCallback(() => {
    if (!layer?.unsaved) return onClose();
    confirming.current = true;
    modal.confirm({
      title: t('unsaved_title'),
      content: t('unsaved_body'),
      okText: t('discard'),
      okButtonProps: { danger: true, 'data-testid': 'discard-changes' } as ButtonProps,
      cancelText: t('keep_painting'),
      zIndex: 1200,
      wrapClassName: 'label-painter-confirm',
      afterClose: () => root.current?.focus(),
      onCancel: () => {
        confirming.current = false;
      },
      onOk: onClose,
    });
  }, [layer, modal, onClose, t]);

  const loadProposal = useCallback(async () => {
    if (!layer || layer.proposal || proposalLoading) return true;
    setProposalLoading(true);
    try {
      const blob = await fetchProposal(request.imageId);
      layer.setProposal(await decodeLabelPng(blob, layer.grid.width, layer.grid.height));
      return true;
    } catch (err) {
      void message.error(errorMessage(t, err, 'labels:proposal_failed'));
      return false;
    } finally {
      setProposalLoading(false);
    }
  }, [layer, proposalLoading, request.imageId, message, t]);

  const toggleProposal = useCallback(() => {
    if (showProposal) return setShowProposal(false);
    void loadProposal().then((ok) => ok && setShowProposal(true));
  }, [showProposal, loadProposal]);

  const pick = useCallback(
    (next: Tool, classValue?: number) => {
      setTool(next);
      if (classValue !== undefined) setValue(classValue);
      // Taking from the proposal needs it on screen.
      if (next === 'take' && !showProposal) void loadProposal().then((ok) => ok && setShowProposal(true));
    },
    [showProposal, loadProposal],
  );

  const onTake = useCallback(
    (x: number, y: number) => {
      if (!layer?.proposal) return;
      if (!layer.takeProposal(x, y)) void message.info(t('take_nothing'));
    },
    [layer, message, t],
  );

  const save = useCallback(async () => {
    if (!layer || !canPaint || busy) return;
    if (
      layer
        .counts()
        .slice(1)
        .every((n) => n === 0)
    ) {
      void message.warning(t('nothing_labelled'));
      return;
    }
    setBusy('save');
    try {
      const saved = await saveLabels(request.imageId, await layer.toPng());
      layer.markSaved();
      setLoaded((l) => (l ? { ...l, stored: true } : l));
      void message.success(t('saved'));
      setServerCounts(saved.counts);
      void invalidateLibrary(queryClient);
    } catch (err) {
      const code = err instanceof ApiError ? err.code : null;
      void message.error(code === 'invalid_labels' ? t('invalid_labels') : errorMessage(t, err, 'labels:save_failed'));
    } finally {
      setBusy(null);
    }
  }, [layer, canPaint, busy, request.imageId, message, t, queryClient]);

  const remove = useCallback(() => {
    if (!layer || !canPaint) return;
    confirming.current = true;
    modal.confirm({
      title: t('delete_title'),
      content: t('delete_body'),
      okText: t('delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete-labels' } as ButtonProps,
      cancelText: t('cancel'),
      zIndex: 1200,
      wrapClassName: 'label-painter-confirm',
      // The keys work again at once (focus would otherwise stay on the closed dialog).
      afterClose: () => root.current?.focus(),
      onCancel: () => {
        confirming.current = false;
      },
      onOk: async () => {
        confirming.current = false;
        setBusy('delete');
        try {
          await deleteLabels(request.imageId);
          layer.load(new Uint8Array(layer.grid.data.length));
          setLoaded((l) => (l ? { ...l, stored: false } : l));
          void message.success(t('deleted'));
          void invalidateLibrary(queryClient);
        } catch (err) {
          void message.error(errorMessage(t, err, 'labels:delete_failed'));
        } finally {
          setBusy(null);
        }
      },
    });
  }, [layer, canPaint, modal, request.imageId, message, t, queryClient]);

  const changeRadius = useCallback(
    (r: number) => setRadius(Math.min(MAX_RADIUS, Math.max(MIN_RADIUS, Math.round(r)))),
    [],
  );

  usePainterKeys({
    enabled: true,
    canPaint,
    spaceHeld,
    confirming,
    onClose: close,
    onPick: pick,
    onRadius: (grow) => changeRadius(grow ? radius * 1.25 + 1 : radius / 1.25 - 1),
    onUndo: () => layer?.undo(),
    onRedo: () => layer?.redo(),
    onFit: view.fit,
    onZoom: (f) => view.zoomBy(f),
    onToggleProposal: toggleProposal,
    onSave: () => void save(),
  });

  // Zoom as photo pixels per screen pixel (100 % = the photo's own pixels).
  const zoomPercent = loaded && grid ? (view.zoom * grid.width * 100) / loaded.photo.width : 100;

  return createPortal(
    // Dark controls over the dark stage (the photo is the brightest thing on screen, as in a paint program).
    <ConfigProvider theme={DARK}>
      <div
        ref={root}
        tabIndex={-1}
        className="label-painter"
        role="dialog"
        aria-modal="true"
        aria-label={t('title', { name: request.name })}
        data-testid="label-painter"
        data-unsaved={unsaved ? 'true' : 'false'}
        data-saved-counts={serverCounts ? JSON.stringify(serverCounts) : undefined}
      >
        <header className="label-painter-top">
          <div className="label-painter-title">
            <strong>{canPaint ? t('heading') : t('open_view')}</strong>
            <span className="label-painter-name" title={request.name}>
              {request.name}
            </span>
            {unsaved ? (
              <span className="label-painter-state is-unsaved" data-testid="label-state">
                {t('state.unsaved')}
              </span>
            ) : (
              <span className="label-painter-state" data-testid="label-state">
                {loaded?.stored ? t('state.saved') : t('state.none')}
              </span>
            )}
          </div>
          <div className="label-painter-actions">
            {canPaint ? (
              <>
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={!loaded?.stored || busy !== null}
                  loading={busy === 'delete'}
                  onClick={remove}
                  data-testid="delete-labels"
                >
                  <span className="label-tool-text">{t('delete')}</span>
                </Button>
                <Button
                  type="primary"
                  icon={<SaveOutlined />}
                  disabled={!loaded || busy !== null}
                  loading={busy === 'save'}
                  onClick={() => void save()}
                  data-testid="save-labels"
                >
                  {t('save')}
                </Button>
              </>
            ) : (
              <Tooltip title={reason('change')}>
                <span className="label-painter-readonly" data-testid="label-readonly">
                  {t('read_only')}
                </span>
              </Tooltip>
            )}
            <Button
              type="text"
              icon={<CloseOutlined />}
              aria-label={t('close')}
              onClick={close}
              data-testid="close-painter"
            />
          </div>
        </header>
        {loaded && layer ? (
          <>
            <PainterToolbar
              tool={tool}
              value={value}
              eraseOnly={eraseOnly}
              radius={radius}
              canPaint={canPaint}
              paintReason={reason('change')}
              canUndo={layer.canUndo}
              canRedo={layer.canRedo}
              zoomPercent={zoomPercent}
              showProposal={showProposal}
              proposalLoading={proposalLoading}
              labelOpacity={labelOpacity}
              counts={counts}
              onPick={pick}
              onEraseOnly={setEraseOnly}
              onRadius={changeRadius}
              onUndo={() => layer.undo()}
              onRedo={() => layer.redo()}
              onZoom={(f) => view.zoomBy(f)}
              onFit={view.fit}
              onToggleProposal={toggleProposal}
              onOpacity={setLabelOpacity}
            />
            <PainterStage
              layer={layer}
              photo={loaded.image}
              photoName={request.name}
              viewport={viewport}
              stage={stage}
              view={view}
              tool={tool}
              value={value}
              eraseOnly={eraseOnly}
              radius={radius}
              canPaint={canPaint}
              showProposal={showProposal}
              labelOpacity={labelOpacity}
              spaceHeld={spaceHeld}
              onTake={onTake}
            />
          </>
        ) : (
          <div className="label-painter-loading">
            {loadError ? (
              <Alert type="error" showIcon title={errorMessage(t, loadError, 'labels:load_failed')} />
            ) : (
              <Spin size="large" />
            )}
          </div>
        )}
        <footer className="label-painter-help" data-testid="label-help">
          {canPaint ? t('help') : t('help_view')}
        </footer>
      </div>
    </ConfigProvider>,
    document.body,
  );
}
