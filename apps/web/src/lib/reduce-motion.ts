/**
 * The system's "reduce motion" setting (WCAG 2.3.3), read once at start: Ant Design's motion is off then
 * (app/theme.ts), and the home carousel changes slides without sliding.
 */
export const reduceMotion =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
