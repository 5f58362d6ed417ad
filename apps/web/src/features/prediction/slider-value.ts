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
