import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formWith } from './helpers/fixtures.js';
import { uploadFiles } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Labels on a real photo (../shared/real-photos/roots/cbsd_tray_cassava1.jpg: 15 cassava slices on a dark board,
 * with a per-slice mask): the engine's proposal lies on the slices, and a label image made from the person's mask
 * is stored at the photo's size with the mask's pixel counts. Skipped when the photos are absent.
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ROOTS = path.join(REPO, '../shared/real-photos/roots');
const PHOTO = path.join(ROOTS, 'cbsd_tray_cassava1.jpg');
const MASK = path.join(ROOTS, 'cbsd_tray_cassava1.mask.png');
const present = fs.existsSync(PHOTO) && fs.existsSync(MASK);

let server: TestServer;
let imageId: number;
let mask: { width: number; height: number; values: Buffer };

beforeAll(async () => {
  if (!present) return;
  server = await startTestServer();
  [{ id: imageId }] = (await uploadFiles(server.url, [{ name: 'tray.jpg', bytes: fs.readFileSync(PHOTO) }])) as [
    { id: number },
  ];
  const { data, info } = await sharp(MASK).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  mask = { width: info.width, height: info.height, values: data };
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(!present)('labels on a real tray photo', () => {
  it("the engine's proposal is at the photo's size and its tissue lies on the slices", async () => {
    const image = (await server.json(`/api/images/${imageId}/`)).body;
    expect([image.width, image.height]).toEqual([mask.width, mask.height]);
    const res = await server.request(`/api/images/${imageId}/labels/proposal/`);
    expect(res.status).toBe(200);
    const png = Buffer.from(await res.arrayBuffer());
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([mask.width, mask.height]);
    let tissue = 0;
    let onSlices = 0;
    let lesion = 0;
    for (let i = 0; i < data.length; i++) {
      if (data[i]! < 2) continue;
      tissue++;
      if (data[i] === 3) lesion++;
      if (mask.values[i]! > 0) onSlices++;
    }
    expect(tissue).toBeGreaterThan(data.length / 50);
    expect(lesion).toBeGreaterThan(0);
    // The slices' outlines are within 1-2 px: nearly all proposed tissue is on a slice.
    expect(onSlices / tissue).toBeGreaterThan(0.9);
    // The engine's first analysis in a busy test process (its workers start with it) may take a while.
  }, 180_000);

  it("a label image made from the person's mask is stored with the mask's counts", async () => {
    const values = Buffer.from(mask.values.map((v) => (v > 0 ? 2 : 1)));
    const png = await sharp(values, { raw: { width: mask.width, height: mask.height, channels: 1 } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const res = await server.json(`/api/images/${imageId}/labels/`, {
      method: 'PUT',
      body: formWith([{ field: 'file', name: 'tray.png', data: png }]),
    });
    expect(res.status).toBe(200);
    const slices = mask.values.reduce((n, v) => n + (v > 0 ? 1 : 0), 0);
    expect(res.body.counts).toEqual({
      background: mask.values.length - slices,
      healthy: slices,
      lesion: 0,
      excluded: 0,
    });
  });
});
