/**
 * Otsu's cut over the values selected by `mask` (all when absent), searched on a 256-bin histogram of
 * [lo, hi]. Returns the cut and the between-class separation (0-1) so callers can tell a real valley from noise.
 */
export function otsu(
  values: Float32Array,
  lo: number,
  hi: number,
  mask?: Uint8Array,
): { cut: number; separation: number } {
  const bins = 256;
  const hist = new Float64Array(bins);
  const scale = (bins - 1) / Math.max(1e-9, hi - lo);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask && mask[i] === 0) continue;
    const v = values[i]!;
    const k = v <= lo ? 0 : v >= hi ? bins - 1 : ((v - lo) * scale + 0.5) | 0;
    hist[k]!++;
    n++;
  }
  if (n === 0) return { cut: (lo + hi) / 2, separation: 0 };
  let total = 0;
  let totalSq = 0;
  for (let k = 0; k < bins; k++) {
    total += k * hist[k]!;
    totalSq += k * k * hist[k]!;
  }
  const mean = total / n;
  const variance = totalSq / n - mean * mean;
  let best = -1;
  let bestK = 0;
  let w0 = 0;
  let sum0 = 0;
  for (let k = 0; k < bins - 1; k++) {
    w0 += hist[k]!;
    sum0 += k * hist[k]!;
    if (w0 === 0 || w0 === n) continue;
    const m0 = sum0 / w0;
    const m1 = (total - sum0) / (n - w0);
    const between = (w0 / n) * (1 - w0 / n) * (m0 - m1) * (m0 - m1);
    if (between > best) {
      best = between;
      bestK = k;
    }
  }
  return { cut: lo + (bestK + 0.5) / scale, separation: variance > 0 ? Math.max(0, best) / variance : 0 };
}

const BINS = 2048;

/** The bin of `v` among BINS bins of [lo, hi] (`scale` = BINS / (hi - lo)); out-of-range values go to the end bins. */
function binOf(v: number, lo: number, hi: number, scale: number): number {
  return v <= lo ? 0 : v >= hi ? BINS - 1 : ((v - lo) * scale) | 0;
}

/** The q-quantile of `count` values binned in `bins` (see Histogram); NaN when empty. */
function binnedQuantile(bins: Int32Array, count: number, q: number, lo: number, hi: number, scale: number): number {
  if (count === 0) return NaN;
  const target = q * (count - 1);
  let seen = 0;
  for (let k = 0; k < BINS; k++) {
    seen += bins[k]!;
    if (seen > target) return lo + (k + 0.5) / scale;
  }
  return hi;
}

/**
 * A 2048-bin histogram of [lo, hi], filled value by value: quantiles in O(n), exact to (hi - lo) / 2048, which is
 * far finer than any decision made with them.
 */
export class Histogram {
  private readonly bins = new Int32Array(BINS);
  private readonly scale: number;
  count = 0;

  constructor(
    private readonly lo = 0,
    private readonly hi = 100,
  ) {
    this.scale = BINS / Math.max(1e-9, hi - lo);
  }

  add(v: number): void {
    this.bins[binOf(v, this.lo, this.hi, this.scale)]!++;
    this.count++;
  }

  /** The q-quantile (0-1); NaN when empty. */
  quantile(q: number): number {
    return binnedQuantile(this.bins, this.count, q, this.lo, this.hi, this.scale);
  }
}

/**
 * The q-quantile (0-1) of the selected values (see Histogram). The bins are filled here, one loop with a mask and
 * one without, rather than through a Histogram: this runs over whole planes several times a photo.
 */
export function quantile(values: Float32Array, q: number, mask?: Uint8Array, lo = 0, hi = 100): number {
  const bins = new Int32Array(BINS);
  const scale = BINS / Math.max(1e-9, hi - lo);
  let count = 0;
  if (mask) {
    for (let i = 0; i < values.length; i++) {
      if (mask[i] === 0) continue;
      bins[binOf(values[i]!, lo, hi, scale)]!++;
      count++;
    }
  } else {
    for (let i = 0; i < values.length; i++) bins[binOf(values[i]!, lo, hi, scale)]!++;
    count = values.length;
  }
  return binnedQuantile(bins, count, q, lo, hi, scale);
}

/** The q-quantile of `values` at the first `count` indices of `at` (see Histogram). */
export function quantileAt(values: Float32Array, at: Int32Array, count: number, q: number, lo = 0, hi = 100): number {
  const bins = new Int32Array(BINS);
  const scale = BINS / Math.max(1e-9, hi - lo);
  for (let j = 0; j < count; j++) bins[binOf(values[at[j]!]!, lo, hi, scale)]!++;
  return binnedQuantile(bins, count, q, lo, hi, scale);
}
