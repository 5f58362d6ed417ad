import { useEffect, useRef, type RefObject } from 'react';
import type { LabelLayer } from '../label-layer';
import type { useView } from '../hooks/use-view';

export type Tool = 'brush' | 'eraser' | 'take' | 'hand';

interface Props {
  layer: LabelLayer;
  photo: HTMLImageElement;
  photoName: string;
  viewport: RefObject<HTMLDivElement | null>;
  stage: RefObject<HTMLDivElement | null>;
  view: ReturnType<typeof useView>;
  tool: Tool;
  /** class value the brush paints */
  value: number;
  /** the class the eraser clears (null: every class) */
  eraseOnly: number | null;
  /** brush radius in grid pixels */
  radius: number;
  canPaint: boolean;
  showProposal: boolean;
  labelOpacity: number;
  /** true while the space bar is held: any drag pans */
  spaceHeld: RefObject<boolean>;
  onTake: (x: number, y: number) => void;
}

type Mode = 'none' | 'paint' | 'pan' | 'pinch';

/** What a stroke writes: the brush's class, or 0 (unlabelled) on the eraser's class or on every class. */
function strokeValue(p: Props): [value: number, only?: number] {
  if (p.tool !== 'eraser') return [p.value];
  return p.eraseOnly === null ? [0] : [0, p.eraseOnly];
}

/**
 * The photo with the label layer (and the proposal, on demand) under one transform; pointer input paints,
 * erases, takes a proposal region or pans; two fingers pinch-zoom; the wheel zooms about the cursor.
 */
export function PainterStage(props: Props) {
  const { layer, viewport, stage, tool, canPaint, showProposal, labelOpacity } = props;
  const latest = useRef(props);
  latest.current = props;
  const cursor = useRef<HTMLDivElement>(null);
  const canvases = useRef<HTMLDivElement>(null);
  const photoCanvas = useRef<HTMLCanvasElement>(null);

  // The photo at the grid's size, drawn once: zooming and panning then move 3 MP at most, not the 12 MP
  // original (the original is shown on top only when zoomed in past the grid's resolution; see useView).
  useEffect(() => {
    const canvas = photoCanvas.current;
    if (!canvas) return;
    let cancelled = false;
    const { width, height } = layer.grid;
    void createImageBitmap(props.photo, { resizeWidth: width, resizeHeight: height, resizeQuality: 'high' })
      .then((bitmap) => {
        if (!cancelled) canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
        bitmap.close();
      })
      .catch(() => canvas.getContext('2d')?.drawImage(props.photo, 0, 0, width, height));
    return () => {
      cancelled = true;
    };
  }, [props.photo, layer]);

  // The layer's canvases are created outside React; they are placed in the stage once.
  useEffect(() => {
    const host = canvases.current;
    if (!host) return;
    layer.proposalCanvas.className = 'label-painter-proposal';
    layer.canvas.className = 'label-painter-labels';
    layer.canvas.setAttribute('data-testid', 'label-canvas');
    host.append(layer.proposalCanvas, layer.canvas);
    return () => {
      layer.proposalCanvas.remove();
      layer.canvas.remove();
    };
  }, [layer]);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const pointers = new Map<number, { x: number; y: number }>();
    let mode: Mode = 'none';
    let last = { x: 0, y: 0 };
    let pinch = { dist: 0, x: 0, y: 0 };
    // Through the latest props: the listeners stay attached for the painter's life (a re-render mid-stroke or
    // mid-pinch must not drop the pointers).
    const view = {
      toGrid: (x: number, y: number) => latest.current.view.toGrid(x, y),
      zoomBy: (f: number, x?: number, y?: number) => latest.current.view.zoomBy(f, x, y),
      panBy: (dx: number, dy: number) => latest.current.view.panBy(dx, dy),
      scale: () => latest.current.view.view.current.scale,
    };

    const local = (e: { clientX: number; clientY: number }) => {
      const r = el.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const pinchState = () => {
      const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const r = el.getBoundingClientRect();
      return { dist: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top };
    };
    const moveCursor = (e: { clientX: number; clientY: number; pointerType?: string }) => {
      const c = cursor.current;
      if (!c) return;
      const p = latest.current;
      const painting = p.canPaint && (p.tool === 'brush' || p.tool === 'eraser') && !p.spaceHeld.current;
      const size = p.radius * 2 * view.scale();
      const { x, y } = local(e);
      c.style.display = painting && e.pointerType !== 'touch' ? 'block' : 'none';
      c.style.width = c.style.height = `${size}px`;
      c.style.transform = `translate(${x - size / 2}px, ${y - size / 2}px)`;
    };

    const down = (e: PointerEvent) => {
      const p = latest.current;
      el.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2) {
        if (mode === 'paint') layer.endStroke();
        mode = 'pinch';
        pinch = pinchState();
        return;
      }
      if (pointers.size > 2) return;
      e.preventDefault();
      const panning = e.button === 1 || p.spaceHeld.current || p.tool === 'hand' || !p.canPaint;
      if (panning) {
        mode = 'pan';
        last = { x: e.clientX, y: e.clientY };
        el.classList.add('is-panning');
      } else if (e.button === 0 && p.tool === 'take') {
        const g = view.toGrid(e.clientX, e.clientY);
        p.onTake(g.x, g.y);
      } else if (e.button === 0) {
        mode = 'paint';
        const g = view.toGrid(e.clientX, e.clientY);
        layer.beginStroke();
        layer.strokeTo(g.x, g.y, g.x, g.y, p.radius, ...strokeValue(p));
        last = g;
      }
    };
    const move = (e: PointerEvent) => {
      moveCursor(e);
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const p = latest.current;
      if (mode === 'pan') {
        view.panBy(e.clientX - last.x, e.clientY - last.y);
        last = { x: e.clientX, y: e.clientY };
      } else if (mode === 'pinch' && pointers.size === 2) {
        const next = pinchState();
        if (pinch.dist > 0) view.zoomBy(next.dist / pinch.dist, next.x, next.y);
        view.panBy(next.x - pinch.x, next.y - pinch.y);
        pinch = next;
      } else if (mode === 'paint') {
        // Every sampled position of the pointer, so a quick stroke stays a smooth line.
        const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
        for (const ev of events.length ? events : [e]) {
          const g = view.toGrid(ev.clientX, ev.clientY);
          layer.strokeTo(last.x, last.y, g.x, g.y, p.radius, ...strokeValue(p));
          last = g;
        }
      }
    };
    const up = (e: PointerEvent) => {
      pointers.delete(e.pointerId);
      if (mode === 'paint') layer.endStroke();
      if (pointers.size === 0) {
        mode = 'none';
        el.classList.remove('is-panning');
      } else if (mode === 'pinch') {
        // One finger left after a pinch: it pans until lifted.
        mode = 'pan';
        const rest = [...pointers.values()][0]!;
        last = { x: rest.x, y: rest.y };
      }
    };
    const leave = () => {
      if (cursor.current) cursor.current.style.display = 'none';
    };
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const { x, y } = local(e);
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      view.zoomBy(Math.exp(-delta * 0.0015), x, y);
      moveCursor(e); // the brush circle follows the zoom
    };
    const noMenu = (e: Event) => e.preventDefault();
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    el.addEventListener('pointerleave', leave);
    el.addEventListener('wheel', wheel, { passive: false });
    el.addEventListener('contextmenu', noMenu);
    return () => {
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      el.removeEventListener('pointerleave', leave);
      el.removeEventListener('wheel', wheel);
      el.removeEventListener('contextmenu', noMenu);
    };
  }, [viewport, layer]);

  const toolClass = !canPaint || tool === 'hand' ? 'tool-hand' : `tool-${tool}`;
  return (
    <div ref={viewport} className={`label-painter-viewport ${toolClass}`} data-testid="label-viewport">
      <div ref={stage} className="label-painter-stage" style={{ width: layer.grid.width, height: layer.grid.height }}>
        <canvas
          ref={photoCanvas}
          className="label-painter-photo"
          width={layer.grid.width}
          height={layer.grid.height}
          role="img"
          aria-label={props.photoName}
        />
        <img src={props.photo.src} alt="" draggable={false} />
        <div
          ref={canvases}
          className={`label-painter-layers${showProposal ? ' show-proposal' : ''}`}
          style={{ ['--label-opacity' as string]: labelOpacity }}
        />
      </div>
      <div ref={cursor} className="label-painter-cursor" />
    </div>
  );
}
