/**
 * Otsu's cut over the values selected by `mask` (all when absent), searched on a 256-bin histogram of
 * [lo, hi]. Returns the cut and the between-class separation (0-1) so callers can tell a real valley from noise.
 */
export function otsu(values: Float32Array, lo: number, hi: number, mask?: Uint8Array): { cut: number; separation: number } {
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

/**
 * The q-quantile (0-1) of the selected values, from a 2048-bin histogram of [lo, hi]: O(n), and exact to
 * (hi - lo) / 2048, which is far finer than any decision made with it.
 */
export function quantile(values: Float32Array, q: number, mask?: Uint8Array, lo = 0, hi = 100): number {
  const bins = 2048;
  const hist = new Int32Array(bins);
  const scale = bins / Math.max(1e-9, hi - lo);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask && mask[i] === 0) continue;
    const v = values[i]!;
    const k = v <= lo ? 0 : v >= hi ? bins - 1 : ((v - lo) * scale) | 0;
    hist[k]!++;
    n++;
  }
  if (n === 0) return NaN;
  const target = q * (n - 1);
  let seen = 0;
  for (let k = 0; k < bins; k++) {
    seen += hist[k]!;
    if (seen > target) return lo + (k + 0.5) / scale;
  }
  return hi;
}
