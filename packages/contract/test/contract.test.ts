import { describe, expect, it } from 'vitest';
import {
  cutKey,
  DEFAULT_PARAMETERS,
  HISTOGRAM_BINS,
  parseVisKey,
  predKey,
  predictionParametersSchema,
  severityOf,
  VIS_KEYS,
  type VisKey,
} from '../src/index.js';

describe('severity bands', () => {
  it('puts values on the half-open bands of the spec', () => {
    expect(severityOf(0)).toBe('healthy');
    expect(severityOf(3.99)).toBe('healthy');
    expect(severityOf(4)).toBe('mild');
    expect(severityOf(6.99)).toBe('mild');
    expect(severityOf(7)).toBe('severe');
    expect(severityOf(10)).toBe('severe');
  });
  it('counts a non-numeric PPD as 0', () => {
    expect(severityOf(null)).toBe('healthy');
    expect(severityOf('8')).toBe('healthy');
    expect(severityOf(Number.NaN)).toBe('healthy');
  });
  it('has histogram bins that cover every value exactly once', () => {
    for (const v of [0, 3.999, 4, 6.5, 7, 7.99, 8, 9.99, 10, 42]) {
      expect(HISTOGRAM_BINS.filter((b) => v >= b.from && v < b.to)).toHaveLength(1);
    }
  });
});

describe('prediction parameters', () => {
  it('defaults to the spec values', () => {
    expect(DEFAULT_PARAMETERS).toEqual({
      threshold: 0.5,
      min_size: 100,
      method: 'post',
      use_tta: false,
      morph_kernel_size: 5,
      morph_iterations: 1,
      overlay_opacity: 0.3,
      split_count: 32,
    });
  });
  it('rejects values outside the slider ranges, naming the field', () => {
    for (const [field, value] of [
      ['threshold', 0.05],
      ['threshold', 1.1],
      ['min_size', 5],
      ['min_size', 1001],
      ['morph_kernel_size', 4],
      ['morph_kernel_size', 17],
      ['morph_iterations', 0],
      ['overlay_opacity', 0.95],
    ] as const) {
      const r = predictionParametersSchema.safeParse({ [field]: value });
      expect(r.success, `${field}=${value}`).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual([field]);
    }
  });
});

describe('vis_images keys', () => {
  it("the seed's keys 1-3 are still keys, and keys go on past 3", () => {
    const seed: VisKey[] = [...VIS_KEYS];
    expect(seed).toEqual(['cut2_1', 'cut2_2', 'cut2_3', 'pred_1', 'pred_2', 'pred_3']);
    const many: Partial<Record<VisKey, string>> = { cut2_1: 'a', pred_17: 'b' };
    many[cutKey(24)] = 'c';
    expect(Object.keys(many)).toEqual(['cut2_1', 'pred_17', 'cut2_24']);
    expect(predKey(30)).toBe('pred_30');
  });
  it('parses a key into its kind and specimen index, and nothing else', () => {
    expect(parseVisKey('cut2_1')).toEqual({ kind: 'cut2', index: 1 });
    expect(parseVisKey('pred_27')).toEqual({ kind: 'pred', index: 27 });
    for (const bad of ['cut2_0', 'cut2_', 'pred_-1', 'pred_1.5', 'cut_1', 'overview', 'cut2_01'])
      expect(parseVisKey(bad)).toBeNull();
  });
});
