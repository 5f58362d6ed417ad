/**
 * A 5x7 pixel font for the few characters the overview needs (digits, '.', ':', '-', '#'), so labels render
 * the same on every machine without system fonts. Each glyph is 7 rows of 5 bits.
 */
const GLYPHS: Record<string, number[]> = {
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  '.': [0, 0, 0, 0, 0, 0x0c, 0x0c],
  ':': [0, 0x0c, 0x0c, 0, 0x0c, 0x0c, 0],
  '-': [0, 0, 0, 0x1f, 0, 0, 0],
  '#': [0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

export const GLYPH_W = 5;
export const GLYPH_H = 7;

/** Width in pixels of `text` drawn at `scale` (1 px gap between glyphs). */
export function textWidth(text: string, scale: number): number {
  return text.length * (GLYPH_W + 1) * scale - scale;
}

/** Draws `text` into an RGB buffer with its top-left at (x, y), clipped to the image. */
export function drawText(
  data: Uint8Array,
  width: number,
  height: number,
  text: string,
  x: number,
  y: number,
  scale: number,
  colour: readonly [number, number, number],
): void {
  let cx = x;
  for (const ch of text) {
    const rows = GLYPHS[ch] ?? GLYPHS[' ']!;
    for (let gy = 0; gy < GLYPH_H; gy++) {
      const bits = rows[gy]!;
      for (let gx = 0; gx < GLYPH_W; gx++) {
        if (!(bits & (1 << (GLYPH_W - 1 - gx)))) continue;
        for (let sy = 0; sy < scale; sy++) {
          const py = y + gy * scale + sy;
          if (py < 0 || py >= height) continue;
          for (let sx = 0; sx < scale; sx++) {
            const px = cx + gx * scale + sx;
            if (px < 0 || px >= width) continue;
            const o = (py * width + px) * 3;
            data[o] = colour[0];
            data[o + 1] = colour[1];
            data[o + 2] = colour[2];
          }
        }
      }
    }
    cx += (GLYPH_W + 1) * scale;
  }
}
