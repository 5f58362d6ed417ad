/** The sections of the one page (spec section 2). There are no URL routes: the current one is app state. */
export const SECTIONS = [
  'home',
  'images',
  'folders',
  'prediction',
  'tasks',
  'results',
  'models',
  'samples',
  'connection',
] as const;
export type Section = (typeof SECTIONS)[number];

export const DEFAULT_SECTION: Section = 'home';

/** Any unknown value falls back to images (spec section 2). */
export function parseSection(value: unknown): Section {
  return (SECTIONS as readonly unknown[]).includes(value) ? (value as Section) : 'images';
}
