import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { countLabels, encodeLabelImage, readLabelPng, scaleLabels } from '../src/learned/label-image.js';

/** A 4x2 label: background, healthy, lesion, excluded on the top row; unlabelled below. */
const VALUES = Uint8Array.from([1, 2, 3, 4, 0, 0, 0, 0]);
const grey = (values: Uint8Array, width = 4, height = 2) =>
  sharp(Buffer.from(values), { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();

describe('readLabelPng', () => {
  it('reads an 8-bit grey PNG: values and counts', async () => {
    const r = await readLabelPng(await grey(VALUES));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([...r.labels.values]).toEqual([...VALUES]);
    expect(r.counts).toEqual({ background: 1, healthy: 1, lesion: 1, excluded: 1 });
  });

  it('reads RGB and RGBA (a browser canvas) by the red channel', async () => {
    const rgba = Buffer.alloc(8 * 4);
    VALUES.forEach((v, i) => rgba.set([v, 200, 100, 255], i * 4));
    const png = await sharp(rgba, { raw: { width: 4, height: 2, channels: 4 } })
      .png()
      .toBuffer();
    const r = await readLabelPng(png);
    expect(r.ok && [...r.labels.values]).toEqual([...VALUES]);
  });

  it('reads a palette PNG by its indices, whatever colours the palette shows', async () => {
    // Colours for display: index 1 green, 2 white, 3 red, 4 blue, 0 black.
    const colours = [
      [0, 0, 0],
      [0, 160, 0],
      [255, 255, 255],
      [220, 0, 0],
      [0, 0, 220],
    ];
    const rgb = Buffer.alloc(8 * 3);
    VALUES.forEach((v, i) => rgb.set(colours[v]!, i * 3));
    const png = await sharp(rgb, { raw: { width: 4, height: 2, channels: 3 } })
      .png({ palette: true, colours: 8, dither: 0 })
      .toBuffer();
    expect((await sharp(png).metadata()).isPalette).toBe(true);
    const r = await readLabelPng(png);
    expect(r.ok).toBe(true);
    // libimagequant orders the palette as it likes: the values are its indices, so each colour maps to one index.
    if (!r.ok) return;
    const byColour = new Map<number, number>();
    VALUES.forEach((v, i) => {
      const seen = byColour.get(v);
      if (seen !== undefined) expect(r.labels.values[i]).toBe(seen);
      byColour.set(v, r.labels.values[i]!);
    });
    expect(new Set(byColour.values()).size).toBe(5);
  });

  it('scales to the photo with nearest neighbour (no blended values)', async () => {
    const r = await readLabelPng(await grey(VALUES), { width: 8, height: 4 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.labels.width).toBe(8);
    expect([...r.labels.values.slice(0, 8)]).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    expect([...r.labels.values.slice(16, 24)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(r.counts).toEqual({ background: 4, healthy: 4, lesion: 4, excluded: 4 });
  });

  it('refuses what is not a label: not a PNG, a value above 4, nothing labelled, 16-bit, truncated', async () => {
    const problem = async (bytes: Uint8Array) => {
      const r = await readLabelPng(bytes);
      return r.ok ? null : r.problem;
    };
    expect(
      await problem(
        await sharp(await grey(VALUES))
          .jpeg()
          .toBuffer(),
      ),
    ).toMatch(/not a PNG/);
    expect(await problem(Buffer.from('hello'))).toMatch(/not a PNG/);
    expect(await problem(await grey(Uint8Array.from([1, 2, 5, 0, 0, 0, 0, 0])))).toMatch(/value 5/);
    expect(await problem(await grey(new Uint8Array(8)))).toMatch(/nothing is labelled/);
    const sixteen = await sharp(Buffer.from(new Uint16Array([1, 2, 3, 4, 0, 0, 0, 0]).buffer), {
      raw: { width: 4, height: 2, channels: 1 },
    })
      .toColourspace('grey16')
      .png()
      .toBuffer();
    expect(await problem(sixteen)).toMatch(/8 bits/);
    const big = await grey(
      Uint8Array.from({ length: 256 * 256 }, (_, i) => i % 5),
      256,
      256,
    );
    expect(await problem(big.subarray(0, big.length - 40))).toMatch(/cannot be/);
  });
});

describe('label helpers', () => {
  it('encodes losslessly and counts', async () => {
    const png = await encodeLabelImage({ width: 4, height: 2, values: VALUES });
    const meta = await sharp(png).metadata();
    expect([meta.channels, meta.isPalette, meta.bitsPerSample]).toEqual([1, false, 8]);
    const r = await readLabelPng(png);
    expect(r.ok && [...r.labels.values]).toEqual([...VALUES]);
    expect(countLabels(VALUES)).toEqual({ background: 1, healthy: 1, lesion: 1, excluded: 1 });
    const down = scaleLabels({ width: 4, height: 2, values: VALUES }, 2, 2);
    expect([...down.values]).toEqual([2, 4, 0, 0]);
  });
});
