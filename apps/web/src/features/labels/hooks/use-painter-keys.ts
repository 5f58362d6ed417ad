import { useEffect, useRef, type RefObject } from 'react';
import type { Tool } from '../components/painter-stage';

interface Handlers {
  enabled: boolean;
  canPaint: boolean;
  spaceHeld: RefObject<boolean>;
  /** true while one of the painter's confirmations is open: it keeps its own keys (Enter, Escape) */
  confirming: RefObject<boolean>;
  onClose: () => void;
  onPick: (tool: Tool, value?: number) => void;
  /** true: larger */
  onRadius: (grow: boolean) => void;
  onUndo: () => void;
  onRedo: () => void;
  onFit: () => void;
  onZoom: (factor: number) => void;
  onToggleProposal: () => void;
  onSave: () => void;
}

const CLASS_KEYS: Record<string, number> = { '1': 1, '2': 2, '3': 3, '4': 4 };

/**
 * The painter's keys (listed in its help line): 1-4 class brushes, E eraser, T take proposal, H hand, P proposal
 * on/off, [ ] brush size, Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo/redo, F fit, + / - zoom, Space held pans,
 * Ctrl+S saves, Esc closes. Listened to in the capture phase and stopped there, so the screens underneath (the
 * Images preview's arrows, the Results review keys) do not also act while the painter is open.
 */
export function usePainterKeys(handlers: Handlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!handlers.enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const h = latest.current;
      if (h.confirming.current) return;
      e.stopImmediatePropagation();
      const ctrl = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      let handled = true;
      if (e.key === 'Escape') h.onClose();
      else if (e.key === ' ') h.spaceHeld.current = true;
      else if (ctrl && key === 'z') (e.shiftKey ? h.onRedo : h.onUndo)();
      else if (ctrl && key === 'y') h.onRedo();
      else if (ctrl && key === 's') h.onSave();
      else if (ctrl) handled = false;
      else if (h.canPaint && CLASS_KEYS[e.key] !== undefined) h.onPick('brush', CLASS_KEYS[e.key]);
      else if (h.canPaint && key === 'e') h.onPick('eraser');
      else if (h.canPaint && key === 't') h.onPick('take');
      else if (key === 'h') h.onPick('hand');
      else if (key === 'p') h.onToggleProposal();
      else if (h.canPaint && e.key === '[') h.onRadius(false);
      else if (h.canPaint && e.key === ']') h.onRadius(true);
      else if (key === 'f') h.onFit();
      else if (e.key === '+' || e.key === '=') h.onZoom(1.5);
      else if (e.key === '-') h.onZoom(1 / 1.5);
      else handled = false;
      if (handled) e.preventDefault();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === ' ') latest.current.spaceHeld.current = false;
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [handlers.enabled]);
}
