import { useSyncExternalStore } from 'react';

/**
 * Opening the label painter (features/labels) from another screen: the Images preview and the Results detail
 * call `openLabelPainter`; the shell mounts the painter's host, which shows it over whatever is open. Features
 * do not import each other, so the request passes through this small store.
 */
export interface LabelPainterRequest {
  imageId: number;
  name: string;
  /** the photo's full-size URL */
  url: string;
}

let current: LabelPainterRequest | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function openLabelPainter(request: LabelPainterRequest): void {
  current = request;
  emit();
}

export function closeLabelPainter(): void {
  current = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The photo the painter is open on, or null. */
export function useLabelPainterRequest(): LabelPainterRequest | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/** Query key prefix of an image's labels (the painter reloads them; a save invalidates it). */
export const LABELS_KEY = ['labels'] as const;
