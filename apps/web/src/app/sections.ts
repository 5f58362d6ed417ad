import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** The sections of the one page (spec section 2). There are no URL routes: the current one is app state. */
export const SECTIONS = ['home', 'images', 'folders', 'prediction', 'tasks', 'results', 'connection'] as const;
export type Section = (typeof SECTIONS)[number];

export const DEFAULT_SECTION: Section = 'home';

/** Any unknown value falls back to images (spec section 2). */
export function parseSection(value: unknown): Section {
  return (SECTIONS as readonly unknown[]).includes(value) ? (value as Section) : 'images';
}

/**
 * Each section is a lazily loaded chunk: apps/web/src/features/<section>/<section>-page.tsx, default export.
 * Keeps the initial bundle small (only the shell and the first section load at start).
 */
export const SECTION_PAGES: Record<Section, LazyExoticComponent<ComponentType>> = {
  home: lazy(() => import('../features/home/home-page')),
  images: lazy(() => import('../features/images/images-page')),
  folders: lazy(() => import('../features/folders/folders-page')),
  prediction: lazy(() => import('../features/prediction/prediction-page')),
  tasks: lazy(() => import('../features/tasks/tasks-page')),
  results: lazy(() => import('../features/results/results-page')),
  connection: lazy(() => import('../features/connection/connection-page')),
};
