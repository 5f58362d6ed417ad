import type { Rect } from '../imaging/raster.js';

/**
 * Items in reading order (issue 25: specimens are numbered the way a person reads the photo): rows from the top,
 * each from left to right. Taken by the height of their centres, an item joins the current row when its centre
 * lies above the lowest bottom edge of the row so far (a small slice beside larger ones, lower than the first of
 * its row, is still of that row); otherwise it starts the next row. Slices and leaves are numbered by this rule.
 */
export function readingOrder<T>(items: readonly T[], rectOf: (item: T) => Rect): T[] {
  const centreY = (r: Rect) => (r.y0 + r.y1) / 2;
  const centreX = (r: Rect) => (r.x0 + r.x1) / 2;
  const byY = [...items].sort((p, q) => centreY(rectOf(p)) - centreY(rectOf(q)));
  const rows: { items: T[]; bottom: number }[] = [];
  for (const item of byY) {
    const r = rectOf(item);
    const row = rows[rows.length - 1];
    if (row && centreY(r) <= row.bottom) {
      row.items.push(item);
      row.bottom = Math.max(row.bottom, r.y1);
    } else rows.push({ items: [item], bottom: r.y1 });
  }
  return rows.flatMap((row) => row.items.sort((p, q) => centreX(rectOf(p)) - centreX(rectOf(q))));
}
