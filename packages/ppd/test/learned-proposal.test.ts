import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, LABEL, type Engine } from '../src/index.js';
import { renderSceneJpeg } from '../src/synthetic/slice-scene.js';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 1 });
});
afterAll(async () => {
  await engine?.close();
});

describe('proposal mode', () => {
  it("returns the engine's own classes of the whole photo as a label PNG beside the usual full result", async () => {
    const { jpeg } = await renderSceneJpeg({
      width: 1200,
      height: 800,
      seed: 5,
      slices: 2,
      background: 'dark',
      ppd: [1, 5],
    });
    const full = await engine.analyse(jpeg, {}, 'full');
    const r = await engine.analyse(jpeg, {}, 'proposal', { specimenKind: 'auto' });
    expect(r.error_code).toBeNull();
    expect(r.sub_ppd_values).toEqual(full.sub_ppd_values);
    expect(full.images.proposal ?? null).toBeNull();
    const png = r.images.proposal!;
    expect((await sharp(png).metadata()).channels).toBe(1);
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    expect(Math.max(info.width, info.height)).toBe(1024);
    const counts = [0, 0, 0, 0, 0];
    for (const v of data) counts[v]!++;
    // background around the slices, healthy flesh and discoloured flesh inside; nothing unlabelled
    expect(counts[LABEL.unlabelled]).toBe(0);
    expect(counts[LABEL.background]).toBeGreaterThan(data.length / 3);
    expect(counts[LABEL.healthy]).toBeGreaterThan(0);
    expect(counts[LABEL.lesion]).toBeGreaterThan(0);
    // the lesion share of the proposal is the photo's mean PPD, near enough (two slices of different sizes)
    const share = (10 * counts[LABEL.lesion]!) / (counts[LABEL.healthy]! + counts[LABEL.lesion]!);
    expect(Math.abs(share - r.ppd_value!)).toBeLessThan(1.5);
  });
});
