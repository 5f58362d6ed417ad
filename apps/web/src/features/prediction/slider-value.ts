/** A slider's range: min, max and step (spec section 5). */
export interface SliderRange {
  min: number;
  max: number;
  step: number;
}

/** Drops float noise from a slider value (0.1 + 0.2 = 0.30000000000000004 -> 0.3). */
export const cleanValue = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * Where a value sits on a slider's own grid: the nearest min + k x step (halves round up), clamped to the range.
 * Both confidence sliders set one threshold: a 0.55 from the fine slider puts the main slider's handle (step 0.1)
 * on 0.6 while the value shown and sent stays 0.55; a 1 from the main slider puts the fine one on its 0.9 end.
 */
export function snapToStep(value: number, range: SliderRange): number {
  const steps = Math.round((value - range.min) / range.step + 1e-9);
  return cleanValue(Math.min(range.max, Math.max(range.min, range.min + steps * range.step)));
}

/** Where the one value stands relative to a slider that cannot hold it exactly. */
export type SliderNote = 'above' | 'below' | 'between' | null;

/**
 * How a slider shows a value set by the other confidence slider (issue 15 item 7): the handle sits on its own
 * grid (snapToStep), and when that is not the value itself the slider says why: the value is above or below its
 * range, or between two of its steps. Both sliders then tell the truth about the one threshold.
 */
export function sliderReading(value: number, range: SliderRange): { position: number; note: SliderNote } {
  const position = snapToStep(value, range);
  if (Math.abs(position - value) < 1e-9) return { position, note: null };
  if (value > range.max) return { position, note: 'above' };
  if (value < range.min) return { position, note: 'below' };
  return { position, note: 'between' };
}
