import { GROUP_CI_MIN_IMAGES, PPD_MAX, PPD_MIN } from '@cassavascope/contract';

/**
 * The statistics of a group of PPD values from its sums (n, sum, sum of squares): mean, sample SD and the 95 %
 * interval of the mean with Student's t (n - 1 degrees of freedom), from GROUP_CI_MIN_IMAGES values on (from two,
 * t = 12.71 gives an interval far wider than the scale). The interval is cut to the scale, 0-10: a group mean cannot
 * lie outside it, so the cut loses no coverage, and "-1.23 - 4.95" would read as a negative PPD. Sums come from the database in one grouped pass, so
 * 100 000 results never travel to the server one by one.
 */
export interface GroupStatistics {
  mean: number | null;
  sd: number | null;
  ci95: [number, number] | null;
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export function groupStatistics(n: number, sum: number, sumSquares: number): GroupStatistics {
  if (n === 0) return { mean: null, sd: null, ci95: null };
  const mean = sum / n;
  if (n < 2) return { mean: round(mean), sd: null, ci95: null };
  // Values are 0-10, so the sum-of-squares form loses nothing that matters; rounding noise below 0 is 0.
  const variance = Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
  const sd = Math.sqrt(variance);
  if (n < GROUP_CI_MIN_IMAGES) return { mean: round(mean), sd: round(sd), ci95: null };
  const half = studentT975(n - 1) * (sd / Math.sqrt(n));
  const ci95: [number, number] = [round(Math.max(PPD_MIN, mean - half)), round(Math.min(PPD_MAX, mean + half))];
  return { mean: round(mean), sd: round(sd), ci95 };
}

/** The 97.5th percentile of Student's t with `df` degrees of freedom (12.706 for 1, 1.960 as df grows). */
export function studentT975(df: number): number {
  const cached = T975.get(df);
  if (cached !== undefined) return cached;
  // The upper tail 1 - CDF(t) = I_{df/(df+t^2)}(df/2, 1/2) / 2 falls as t grows: bisect it to 0.025.
  let lo = 0;
  let hi = 64;
  for (let i = 0; i < 100; i++) {
    const t = (lo + hi) / 2;
    const tail = regularizedBeta(df / (df + t * t), df / 2, 0.5) / 2;
    if (tail > 0.025) lo = t;
    else hi = t;
  }
  const t = (lo + hi) / 2;
  T975.set(df, t);
  return t;
}

const T975 = new Map<number, number>();

/** ln Gamma(x) for x > 0 (Lanczos approximation, g = 7, 9 terms: about 15 significant digits). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized incomplete beta function I_x(a, b), by its continued fraction (modified Lentz). */
function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // The fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
  if (x > (a + 1) / (a + b + 2)) return 1 - regularizedBeta(1 - x, b, a);
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x)) / a;
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = Math.floor(i / 2);
    let numerator: number;
    if (i === 0) numerator = 1;
    else if (i % 2 === 0) numerator = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + numerator * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + numerator / c;
    if (Math.abs(c) < tiny) c = tiny;
    const step = c * d;
    f *= step;
    if (Math.abs(1 - step) < 1e-14) break;
  }
  return front * (f - 1);
}
