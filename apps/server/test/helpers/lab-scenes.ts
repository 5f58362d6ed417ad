import { seededRandom } from '@cassavascope/ppd/synthetic';
import sharp from 'sharp';
import { formWith } from './fixtures.js';
import type { TestServer } from './test-server.js';

/**
 * A photo whose truth is known to the pixel, for lab-model tests: a cream slice on blue cloth with dark brown
 * lesion blobs, and its label PNG (1 background, 2 healthy, 3 lesion). `lesions: 0` gives a healthy slice.
 */
export async function labScene(
  seed: number,
  options: { width?: number; height?: number; lesions?: number } = {},
): Promise<{ photo: Buffer; labels: Buffer }> {
  const width = options.width ?? 240;
  const height = options.height ?? 180;
  const rng = seededRandom(seed);
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.min(width, height) * 0.38;
  const blobs = Array.from({ length: options.lesions ?? 3 }, () => {
    const a = rng() * Math.PI * 2;
    const d = rng() * r * 0.6;
    return { x: cx + Math.cos(a) * d, y: cy + Math.sin(a) * d, r: r * (0.12 + rng() * 0.12) };
  });
  const rgb = Buffer.alloc(width * height * 3);
  const labels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const noise = Math.round((rng() - 0.5) * 12);
      let colour: [number, number, number];
      if (Math.hypot(x - cx, y - cy) > r) {
        colour = [30, 40, 120];
        labels[i] = 1;
      } else if (blobs.some((b) => Math.hypot(x - b.x, y - b.y) <= b.r)) {
        colour = [85, 60, 40];
        labels[i] = 3;
      } else {
        colour = [232, 222, 190];
        labels[i] = 2;
      }
      rgb[i * 3] = clamp(colour[0] + noise);
      rgb[i * 3 + 1] = clamp(colour[1] + noise);
      rgb[i * 3 + 2] = clamp(colour[2] + noise);
    }
  }
  return {
    photo: await sharp(rgb, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
    labels: await sharp(labels, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer(),
  };
}

/** Uploads a scene's photo and stores its labels through the API; returns the image id. */
export async function uploadLabelled(server: TestServer, name: string, scene: { photo: Buffer; labels: Buffer }) {
  const up = await server.json('/api/images/upload-files/', {
    method: 'POST',
    body: formWith([{ name, data: scene.photo, type: 'image/png' }], { check_duplicate: '0' }),
  });
  if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
  const id = up.body.uploaded[0].id as number;
  const put = await server.json(`/api/images/${id}/labels/`, {
    method: 'PUT',
    body: formWith([{ field: 'file', name: 'labels.png', data: scene.labels, type: 'image/png' }]),
  });
  if (put.status !== 200) throw new Error(`labels failed: ${put.status} ${JSON.stringify(put.body)}`);
  return id;
}

/** Polls a model until it leaves `training` (no fixed sleep: the answer decides). */
export async function waitForModel(server: TestServer, id: number, timeoutMs = 180_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 50; ; wait = Math.min(500, wait * 1.5)) {
    const res = await server.json(`/api/models/${id}/`);
    if (res.status !== 200) throw new Error(`model ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.status !== 'training') return res.body;
    if (Date.now() > deadline) throw new Error(`model ${id} still training: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

const clamp = (v: number) => Math.max(0, Math.min(255, v));
