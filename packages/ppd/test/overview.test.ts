import { describe, expect, it } from 'vitest';
import { drawOverview, UNSCORED_BOX } from '../src/render/visualise.js';
import { readingOrder } from '../src/pipeline/reading-order.js';

/** Issue 25: the overview's boxes say the band of their value, and specimens are numbered in reading order. */
describe('the overview', () => {
  const grey = (width: number, height: number) => ({
    width,
    height,
    data: new Uint8Array(width * height * 3).fill(128),
  });
  const pixel = (img: { width: number; data: Uint8Array }, x: number, y: number) => {
    const o = (y * img.width + x) * 3;
    return [img.data[o], img.data[o + 1], img.data[o + 2]];
  };

  it('draws each box in the colour of its band (a 0.98 is green, not the red of a cycling palette), one colour without a value', () => {
    const img = grey(400, 200);
    const boxes = [
      { x0: 10, y0: 60, x1: 90, y1: 140 },
      { x0: 110, y0: 60, x1: 190, y1: 140 },
      { x0: 210, y0: 60, x1: 290, y1: 140 },
      { x0: 310, y0: 60, x1: 390, y1: 140 },
    ];
    const out = drawOverview(img, boxes, [0.98, 5.5, 8.25, null]);
    // The left edge halfway down each box (the label sits above the box, not there).
    expect(pixel(out, 10, 100)).toEqual([56, 158, 13]);
    expect(pixel(out, 110, 100)).toEqual([212, 161, 6]);
    expect(pixel(out, 210, 100)).toEqual([207, 19, 34]);
    expect(pixel(out, 310, 100)).toEqual([...UNSCORED_BOX]);
    // Inside a box the photo is untouched.
    expect(pixel(out, 50, 100)).toEqual([128, 128, 128]);
  });

  it('orders specimens in reading order: rows from the top, each left to right, a slightly higher right neighbour after its left one', () => {
    const rects = [
      { id: 'top-right', x0: 300, y0: 10, x1: 400, y1: 110 },
      { id: 'top-left', x0: 10, y0: 30, x1: 110, y1: 130 },
      { id: 'bottom-left', x0: 20, y0: 200, x1: 120, y1: 300 },
      { id: 'bottom-right', x0: 250, y0: 190, x1: 350, y1: 290 },
      { id: 'top-middle', x0: 150, y0: 20, x1: 250, y1: 120 },
    ];
    expect(readingOrder(rects, (r) => r).map((r) => r.id)).toEqual([
      'top-left',
      'top-middle',
      'top-right',
      'bottom-left',
      'bottom-right',
    ]);
  });

  it('keeps a small slice lower than the first of its row in that row (the real tray: its sixth slice)', () => {
    // cbsd_tray_cassava1.jpg's middle row, by the engine's boxes: the small left slice's centre lies below the
    // bottom of the row's highest slice, above the others' bottoms; the next row starts well below.
    const rects = [
      { id: 'right', x0: 1351, y0: 321, x1: 1630, y1: 596 },
      { id: 'small-left', x0: 95, y0: 501, x1: 325, y1: 672 },
      { id: 'middle', x0: 774, y0: 406, x1: 977, y1: 606 },
      { id: 'left', x0: 413, y0: 393, x1: 669, y1: 672 },
      { id: 'middle-right', x0: 1072, y0: 416, x1: 1302, y1: 603 },
      { id: 'next-row', x0: 49, y0: 790, x1: 341, y1: 1075 },
    ];
    expect(readingOrder(rects, (r) => r).map((r) => r.id)).toEqual([
      'small-left',
      'left',
      'middle',
      'middle-right',
      'right',
      'next-row',
    ]);
  });
});
