import { severityOf } from '@cassavascope/contract';
import type { AnalysisResult, Box } from '../types.js';
import type { Scene } from './slice-scene.js';

/** Share of the smaller box covered by the overlap. */
export function boxOverlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? (w * h) / Math.min(a.w * a.h, b.w * b.h) : 0;
}

export interface SliceComparison {
  truth: number;
  /** null when the engine found no cut on this slice */
  predicted: number | null;
}

/**
 * Pairs each scored cut with the slice it covers; slices the engine should have kept (the three largest)
 * but did not are reported with `predicted: null`.
 */
export function compareWithTruth(scene: Scene, result: AnalysisResult): SliceComparison[] {
  const expected = [...scene.slices].sort((p, q) => q.area - p.area).slice(0, 3);
  return expected.map((slice) => {
    let best = -1;
    let bestOverlap = 0.5;
    result.cuts.forEach((cut, i) => {
      const o = boxOverlap(cut, slice.box);
      if (o > bestOverlap) {
        bestOverlap = o;
        best = i;
      }
    });
    return { truth: slice.ppd, predicted: best >= 0 ? (result.sub_ppd_values[best] ?? null) : null };
  });
}

export interface AccuracySummary {
  slices: number;
  missed: number;
  /** mean |predicted - truth| over found slices, PPD units */
  mae: number;
  maxError: number;
  /** share of found slices whose band (healthy/mild/severe) matches the truth's */
  bandAgreement: number;
}

export function summarise(comparisons: SliceComparison[]): AccuracySummary {
  const found = comparisons.filter((c) => c.predicted !== null) as { truth: number; predicted: number }[];
  const errors = found.map((c) => Math.abs(c.predicted - c.truth));
  return {
    slices: comparisons.length,
    missed: comparisons.length - found.length,
    mae: errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : NaN,
    maxError: errors.length ? Math.max(...errors) : NaN,
    bandAgreement: found.length
      ? found.filter((c) => severityOf(c.predicted) === severityOf(c.truth)).length / found.length
      : NaN,
  };
}
