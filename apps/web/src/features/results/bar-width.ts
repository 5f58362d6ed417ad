/** Minimum bar width of the PPD distribution, in percent (spec section 9). */
export const MIN_BAR_PERCENT = 5;

/** A part of a whole in percent; 0 of nothing is 0. */
export const percent = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

/**
 * Width of a PPD distribution bar, in percent: its share, at least MIN_BAR_PERCENT so a small band stays visible;
 * an empty band draws no bar (issue 15 item 4: five bars on an empty library said there was something).
 */
export const barWidth = (n: number, count: number): number =>
  n > 0 ? Math.max(MIN_BAR_PERCENT, percent(n, count)) : 0;
