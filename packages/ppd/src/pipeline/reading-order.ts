import type { Rect } from '../imaging/raster.js';

/**
 * Items in reading order (issue 25: specimens are numbered the way a person reads the photo): rows from the top,
 * each from left to right. An item joins the current row when its centre lies within the height of the row's
 * first (topmost) item; otherwise it starts the next row. The slices' own search orders them by the same rule.
 */
export function readingOrder<T>(items: readonly T[], rectOf: (item: T) => Rect): T[] {
  const centreY = (r: Rect) => (r.y0 + r.y1) / 2;
  const centreX = (r: Rect) => (r.x0 + r.x1) / 2;
  const byY = [...items].sort((p, q) => centreY(rectOf(p)) - centreY(rectOf(q)));
  const rows: T[][] = [];
  for (const item of byY) {
    const row = rows[rows.length - 1];
    if (row && centreY(rectOf(item)) <= rectOf(row[0]!).y1) row.push(item);
    else rows.push([item]);
  }
  return rows.flatMap((row) => row.sort((p, q) => centreX(rectOf(p)) - centreX(rectOf(q))));
}
