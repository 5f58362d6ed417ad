import type { LabModelMetrics } from '../../lib/lab-models';

/** PPD errors closer than this are read as the same (the third decimal of a 0-10 score is noise). */
const SAME_WITHIN = 0.05;

export type Verdict = 'better' | 'worse' | 'same' | 'unknown';

/**
 * How the lab model compares with the default engine on photos it did not train on, by the mean PPD error of
 * each: said plainly on the card, so a lab does not score with a model that reads its photos worse.
 */
export function verdictOf(metrics: LabModelMetrics | null): Verdict {
  if (!metrics || metrics.ppdMae === null || metrics.baselinePpdMae === null) return 'unknown';
  const diff = metrics.ppdMae - metrics.baselinePpdMae;
  if (Math.abs(diff) < SAME_WITHIN) return 'same';
  return diff < 0 ? 'better' : 'worse';
}

/** 0-1 as a percentage with one decimal; a dash when unknown. */
export const percent = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

/** A PPD error or value with two decimals; a dash when unknown. */
export const ppdNumber = (value: number | null) => (value === null ? '–' : value.toFixed(2));
