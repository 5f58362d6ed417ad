import { describe, expect, it } from 'vitest';
import { gridSize } from '../src/features/labels/label-classes';
import {
  countClasses,
  readRect,
  stampLine,
  takeProposalRegion,
  writeRect,
  type Grid,
} from '../src/features/labels/label-raster';

const grid = (width: number, height: number, fill = 0): Grid => ({
  width,
  height,
  data: new Uint8Array(width * height).fill(fill),
});

describe('label painter grid', () => {
  it('paints on at most 2048 px on the long side, never upscales', () => {
    expect(gridSize(4000, 3000)).toEqual({ width: 2048, height: 1536 });
    expect(gridSize(1679, 1093)).toEqual({ width: 1679, height: 1093 });
    expect(gridSize(3000, 4000)).toEqual({ width: 1536, height: 2048 });
  });

  it('a stroke is a gapless band of the brush width, and the rectangle it reports covers it', () => {
    const g = grid(100, 40);
    const rect = stampLine(g, 10, 20, 90, 20, 3, 2)!;
    const counts = countClasses(g.data);
    // about 80 px long x 6 px wide plus the round ends
    expect(counts[2]).toBeGreaterThan(80 * 5);
    expect(counts[2]).toBeLessThan(90 * 7);
    for (let x = 10; x <= 90; x++) expect(g.data[20 * 100 + x]).toBe(2);
    expect(rect.x).toBeLessThanOrEqual(7);
    expect(rect.x + rect.width).toBeGreaterThanOrEqual(93);
    expect(g.data[5 * 100 + 50]).toBe(0);
  });

  it('a stroke off the photo paints nothing', () => {
    const g = grid(10, 10);
    expect(stampLine(g, -50, -50, -40, -40, 2, 1)).toBeNull();
    expect(countClasses(g.data)[1]).toBe(0);
  });

  it('an eraser set to one class clears only that class; set to every class, all of them', () => {
    const g = grid(100, 40);
    stampLine(g, 10, 15, 90, 15, 3, 2);
    stampLine(g, 10, 25, 90, 25, 3, 3);
    const before = countClasses(g.data);
    // a vertical sweep across both strokes, limited to healthy (2)
    stampLine(g, 50, 0, 50, 39, 6, 0, 2);
    const after = countClasses(g.data);
    expect(after[2]).toBeLessThan(before[2]!);
    expect(after[3]).toBe(before[3]);
    for (let y = 10; y <= 20; y++) expect(g.data[y * 100 + 50]).toBe(0);
    // the same sweep on every class takes the discoloured stroke too
    stampLine(g, 50, 0, 50, 39, 6, 0);
    expect(countClasses(g.data)[3]).toBeLessThan(before[3]!);
  });

  it('take proposal copies the connected region under the click onto unlabelled pixels only', () => {
    // proposal: left half lesion (3), right half healthy (2), a separate lesion blob at the far right
    const proposal = grid(20, 10);
    for (let y = 0; y < 10; y++)
      for (let x = 0; x < 20; x++) proposal.data[y * 20 + x] = x < 8 ? 3 : x >= 17 && y < 3 ? 3 : 2;
    const labels = grid(20, 10);
    labels.data[5 * 20 + 2] = 1; // painted by the researcher: stays
    const rect = takeProposalRegion(labels, proposal, 3.5, 4.2)!;
    expect(rect).toEqual({ x: 0, y: 0, width: 8, height: 10 });
    const counts = countClasses(labels.data);
    expect(counts[3]).toBe(8 * 10 - 1);
    expect(counts[1]).toBe(1);
    expect(counts[2]).toBe(0); // the neighbouring region of another class is not taken
    expect(labels.data[0 * 20 + 18]).toBe(0); // nor the unconnected blob of the same class
    // taking it again changes nothing
    expect(takeProposalRegion(labels, proposal, 3, 4)).toBeNull();
  });

  it('undo patches restore exactly what a rectangle held', () => {
    const g = grid(8, 8);
    const rect = { x: 2, y: 3, width: 4, height: 2 };
    const before = readRect(g, rect);
    stampLine(g, 4, 4, 4, 4, 2, 4);
    writeRect(g, rect, before);
    expect(readRect(g, rect).every((v) => v === 0)).toBe(true);
  });
});
