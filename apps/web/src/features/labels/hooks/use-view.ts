import { useCallback, useRef, useState, type RefObject } from 'react';

/** Screen pixels per grid pixel: from a quarter of fit up to 40 (a grid pixel as a big square). */
const MAX_SCALE = 40;

export interface View {
  /** screen px per grid px, and the grid's top-left corner in the viewport */
  scale: number;
  x: number;
  y: number;
}

/**
 * Zoom and pan of the painter's stage. The transform lives in a ref and is written straight to the stage's
 * style (a GPU transform of the photo and the label canvas), so wheel and drag never re-render React; `zoom` is
 * the displayed scale, updated alongside for the toolbar.
 */
export function useView(
  viewport: RefObject<HTMLDivElement | null>,
  stage: RefObject<HTMLDivElement | null>,
  grid: { width: number; height: number } | null,
) {
  const view = useRef<View>({ scale: 1, x: 0, y: 0 });
  const fitScale = useRef(1);
  const [zoom, setZoom] = useState(1);
  const pending = useRef(0);
  const detailTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const apply = useCallback(() => {
    const v = view.current;
    if (stage.current) {
      stage.current.style.transform = `translate(${v.x}px, ${v.y}px) scale(${v.scale})`;
      // Past one screen pixel per grid pixel the full-size photo shows its detail, once the view rests: while
      // it moves, only the grid-sized photo is redrawn (a 12 MP rescale a frame is what made zooming stutter).
      const el = stage.current;
      el.classList.remove('is-detail');
      clearTimeout(detailTimer.current);
      if (v.scale > 1) detailTimer.current = setTimeout(() => el.classList.add('is-detail'), 150);
    }
    // The toolbar's percentage renders at most once a frame (a wheel sends several events per frame); the
    // same number while panning: React skips the render.
    if (!pending.current)
      pending.current = requestAnimationFrame(() => {
        pending.current = 0;
        setZoom(view.current.scale);
      });
  }, [stage]);

  const fit = useCallback(() => {
    const el = viewport.current;
    if (!el || !grid) return;
    const { width, height } = el.getBoundingClientRect();
    const scale = Math.min(width / grid.width, height / grid.height) * 0.98;
    fitScale.current = scale;
    view.current = { scale, x: (width - grid.width * scale) / 2, y: (height - grid.height * scale) / 2 };
    apply();
  }, [viewport, grid, apply]);

  /** Zooms by `factor` keeping the viewport point (px, py) still (the viewport's centre by default). */
  const zoomBy = useCallback(
    (factor: number, px?: number, py?: number) => {
      const el = viewport.current;
      if (!el) return;
      const rect = el.getBoundingClientRect();
      const cx = px ?? rect.width / 2;
      const cy = py ?? rect.height / 2;
      const v = view.current;
      const scale = Math.min(MAX_SCALE, Math.max(fitScale.current / 4, v.scale * factor));
      const k = scale / v.scale;
      view.current = { scale, x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k };
      apply();
    },
    [viewport, apply],
  );

  const panBy = useCallback(
    (dx: number, dy: number) => {
      const v = view.current;
      view.current = { ...v, x: v.x + dx, y: v.y + dy };
      apply();
    },
    [apply],
  );

  /** A client point in grid pixels (fractional). */
  const toGrid = useCallback(
    (clientX: number, clientY: number) => {
      const rect = viewport.current?.getBoundingClientRect();
      const v = view.current;
      return { x: (clientX - (rect?.left ?? 0) - v.x) / v.scale, y: (clientY - (rect?.top ?? 0) - v.y) / v.scale };
    },
    [viewport],
  );

  return { view, zoom, fit, zoomBy, panBy, toGrid };
}
