import { describe, expect, it } from 'vitest';
import { groupStatistics, studentT975 } from '../src/predictions/group-statistics';

/** The statistics of a list of PPD values, through the sums the database hands over. */
const stats = (values: number[]) =>
  groupStatistics(
    values.length,
    values.reduce((a, b) => a + b, 0),
    values.reduce((a, b) => a + b * b, 0),
  );

describe('group statistics (issue 25: figures a researcher can publish)', () => {
  it('gives the mean, the sample SD and the t-interval of the mean', () => {
    const g = stats([3, 4, 5, 6]);
    expect(g.mean).toBe(4.5);
    expect(g.sd).toBeCloseTo(1.291, 3);
    const half = studentT975(3) * (1.29099 / 2);
    expect(g.ci95![0]).toBeCloseTo(4.5 - half, 3);
    expect(g.ci95![1]).toBeCloseTo(4.5 + half, 3);
  });

  it('cuts the interval to the 0-10 scale: no negative PPD, none above 10', () => {
    // NASE14's three slices in the walk of issue 25 read "-1.23 - 4.95" before.
    const low = stats([0.2, 0.9, 3.9]);
    expect(low.mean).toBeCloseTo(1.6667, 3);
    expect(low.ci95![0]).toBe(0);
    expect(low.ci95![1]).toBeGreaterThan(low.mean!);
    const high = stats([9.8, 9.9, 6]);
    expect(high.ci95![1]).toBe(10);
    expect(high.ci95![0]).toBeLessThan(high.mean!);
  });

  it('gives no interval below 3 photos and no SD for one', () => {
    expect(stats([2, 8]).ci95).toBeNull();
    expect(stats([2, 8]).sd).not.toBeNull();
    expect(stats([5])).toEqual({ mean: 5, sd: null, ci95: null });
  });
});
