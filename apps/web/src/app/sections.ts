import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { SECTIONS, type Section } from '../lib/sections';

/** A page module: the page as default export and, optionally, `prefetch` to warm its first query. */
interface PageModule {
  default: ComponentType;
  prefetch?: (queryClient: QueryClient) => void;
}

/**
 * Each section is a lazily loaded chunk: apps/web/src/features/<section>/<section>-page.tsx, default export.
 * Keeps the initial bundle small (only the shell and the first section load at start).
 */
const LOADERS: Record<Section, () => Promise<PageModule>> = {
  home: () => import('../features/home/home-page'),
  images: () => import('../features/images/images-page'),
  folders: () => import('../features/folders/folders-page'),
  prediction: () => import('../features/prediction/prediction-page'),
  tasks: () => import('../features/tasks/tasks-page'),
  results: () => import('../features/results/results-page'),
  models: () => import('../features/models/models-page'),
  samples: () => import('../features/samples/samples-page'),
  connection: () => import('../features/connection/connection-page'),
};

export const SECTION_PAGES = Object.fromEntries(SECTIONS.map((s) => [s, lazy(LOADERS[s])])) as Record<
  Section,
  LazyExoticComponent<ComponentType>
>;

/**
 * Once the first screen is up and the browser is idle, fetch the other sections' chunks (and let a page warm its
 * first query through an exported `prefetch`), so a click on the navigation renders at once. The initial load
 * stays small; the rest arrives in the background.
 */
export function prefetchSections(except: Section, queryClient: QueryClient): void {
  const run = () => {
    for (const s of SECTIONS) {
      if (s === except) continue;
      LOADERS[s]()
        .then((mod) => mod.prefetch?.(queryClient))
        .catch(() => undefined);
    }
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 3000 });
  else setTimeout(run, 1500);
}
