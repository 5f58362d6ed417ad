import type { LabelImage } from '../learned/lab-model-api.js';

/**
 * Labels as a researcher paints them with a brush, made from a photo's full labels: per class, the longest
 * horizontal runs whose whole brush disc (plus a pixel) stays inside that class, on rows apart from each other,
 * brushed along at `radius`. What `apps/web/test/teach-end-to-end.test.ts` paints in the browser; the benchmark
 * and tests use it to judge a lab model trained from strokes rather than from whole masks (strokes never reach
 * a class's edges: a thin peel ring or a small speck gets none).
 */
export function strokeLabels(
  labels: LabelImage,
  options: { radius?: number; runs?: number; classes?: readonly number[] } = {},
): LabelImage {
  const { width, height, values } = labels;
  const radius = options.radius ?? 2;
  const perClass = options.runs ?? 3;
  const m = radius + 1;
  const out = new Uint8Array(width * height);
  for (const value of options.classes ?? [1, 2, 3, 4]) {
    const inside = (x: number, y: number) => {
      for (let dy = -m; dy <= m; dy++)
        for (let dx = -m; dx <= m; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= width || yy >= height || values[yy * width + xx] !== value) return false;
        }
      return true;
    };
    const runs: { y: number; x0: number; x1: number }[] = [];
    for (let y = 0; y < height; y++) {
      let start = -1;
      for (let x = 0; x <= width; x++) {
        const ok = x < width && inside(x, y);
        if (ok && start < 0) start = x;
        if (!ok && start >= 0) {
          runs.push({ y, x0: start, x1: x - 1 });
          start = -1;
        }
      }
    }
    runs.sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0));
    const picked: typeof runs = [];
    for (const r of runs) {
      if (picked.every((p) => Math.abs(p.y - r.y) > 2 * m)) picked.push(r);
      if (picked.length === perClass) break;
    }
    for (const r of picked)
      for (let x = r.x0; x <= r.x1; x++)
        for (let dy = -radius; dy <= radius; dy++)
          for (let dx = -radius; dx <= radius; dx++) {
            if (dx * dx + dy * dy > radius * radius) continue;
            const xx = x + dx;
            const yy = r.y + dy;
            if (xx >= 0 && yy >= 0 && xx < width && yy < height) out[yy * width + xx] = value;
          }
  }
  return { width, height, values: out };
}
