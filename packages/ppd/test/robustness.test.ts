import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type AnalysisResult, type Engine } from '../src/index.js';
import { parseAnalysisParams } from '../src/params.js';
import { WorkerPool } from '../src/pool/worker-pool.js';
import { renderScene } from '../src/synthetic/slice-scene.js';
import { drawSlicePng } from './helpers/drawn-slice.js';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 2 });
});
afterAll(async () => {
  await engine?.close();
});

/** A scene photo as a sharp pipeline, to re-encode in odd formats. */
function scenePipeline(seed: number, width = 800, height = 600) {
  const s = renderScene({ width, height, seed, slices: 1, background: 'dark', realism: false, ppd: [3] });
  return { scene: s, img: sharp(s.rgb, { raw: { width, height, channels: 3 } }) };
}

function expectScored(r: AnalysisResult) {
  expect(r.error_code).toBeNull();
  expect(r.cuts.length).toBeGreaterThan(0);
  expect(r.ppd_value).not.toBeNull();
  expect(r.images.overview).not.toBeNull();
}

describe('odd and broken images give a result or an error code, never a crash', () => {
  it('1 x 1 pixel', async () => {
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#e0d0b0' } })
      .png()
      .toBuffer();
    const r = await engine.analyse(png);
    expect(r.error_code).toBe('no_specimen_found');
  });

  it('uniform grey has no specimen', async () => {
    const jpg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const r = await engine.analyse(jpg);
    expect(r.error_code).toBe('no_specimen_found');
    expect(r.ppd_value).toBeNull();
  });

  it('20 000 px wide: the box comes back in original pixels', async () => {
    const slice = await drawSlicePng({ size: 800, blobs: [{ x: 400, y: 400, r: 100, soft: 2 }] });
    const jpg = await sharp({
      create: { width: 20_000, height: 1000, channels: 3, background: { r: 40, g: 80, b: 160 } },
    })
      .composite([{ input: slice, left: 10_000, top: 100 }])
      .jpeg()
      .toBuffer();
    const r = await engine.analyse(jpg);
    expectScored(r);
    expect(r.cuts).toHaveLength(1);
    const cut = r.cuts[0]!;
    // the slice disc spans x 10 080..10 720, y 180..820 of the original
    expect(cut.x).toBeGreaterThan(9_900);
    expect(cut.x).toBeLessThan(10_100);
    expect(cut.x + cut.w).toBeGreaterThan(10_700);
    expect(cut.x + cut.w).toBeLessThan(10_900);
    expect(cut.y + cut.h).toBeLessThanOrEqual(1000);
  });

  it('greyscale, CMYK, 16-bit and alpha versions of a photo all score close to the original', async () => {
    const { img } = scenePipeline(5);
    const base = await engine.analyse(await img.clone().jpeg({ quality: 92 }).toBuffer());
    expectScored(base);
    const cmyk = await engine.analyse(await img.clone().toColourspace('cmyk').jpeg({ quality: 92 }).toBuffer());
    const deep = await engine.analyse(await img.clone().toColourspace('rgb16').png().toBuffer());
    const alpha = await engine.analyse(await img.clone().ensureAlpha(1).png().toBuffer());
    for (const r of [cmyk, deep, alpha]) {
      expectScored(r);
      expect(Math.abs(r.ppd_value! - base.ppd_value!)).toBeLessThan(0.3);
    }
    const grey = await engine.analyse(await img.clone().greyscale().jpeg().toBuffer());
    expect(grey.error_code === null || grey.error_code === 'no_specimen_found').toBe(true);
    if (grey.error_code === null) expect(grey.cuts.length).toBeGreaterThan(0);
  });

  it('a translucent PNG (alpha 0.5 everywhere) is flattened, not refused', async () => {
    const { img } = scenePipeline(6);
    const { data, info } = await img.clone().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    for (let i = 3; i < data.length; i += 4) data[i] = 128;
    const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
      .png()
      .toBuffer();
    const r = await engine.analyse(png);
    expect(r.error_code === null || r.error_code === 'no_specimen_found').toBe(true);
  });

  it('EXIF orientation is applied: boxes are in the upright image', async () => {
    const { img } = scenePipeline(7, 800, 600);
    // stored landscape with orientation 6 (display rotated 90 degrees clockwise) = a 600 x 800 portrait photo
    const tagged = await img.clone().jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer();
    const upright = await img.clone().rotate(90).jpeg({ quality: 92 }).toBuffer();
    const a = await engine.analyse(tagged);
    const b = await engine.analyse(upright);
    expectScored(a);
    expectScored(b);
    expect(a.cuts).toHaveLength(b.cuts.length);
    a.cuts.forEach((cut, i) => {
      const other = b.cuts[i]!;
      expect(Math.abs(cut.x - other.x)).toBeLessThan(6);
      expect(Math.abs(cut.y - other.y)).toBeLessThan(6);
      expect(cut.x + cut.w).toBeLessThanOrEqual(600);
      expect(cut.y + cut.h).toBeLessThanOrEqual(800);
    });
    expect(Math.abs(a.ppd_value! - b.ppd_value!)).toBeLessThan(0.2);
  });

  it('truncated, garbage and empty bytes are decode_failed', async () => {
    const { img } = scenePipeline(8);
    const jpg = await img.clone().jpeg().toBuffer();
    for (const bytes of [
      jpg.subarray(0, Math.floor(jpg.length / 2)),
      Buffer.from('GIF89a but not really'),
      Buffer.alloc(0),
      Buffer.alloc(5000, 0xff),
    ]) {
      const r = await engine.analyse(bytes);
      expect(r.error_code).toBe('decode_failed');
      expect(r.error_message).toBeTruthy();
    }
    // and the engine still works afterwards
    expectScored(await engine.analyse(jpg));
  });
});

describe('worker pool', () => {
  const workerUrl = new URL('./helpers/misbehaving.worker.ts', import.meta.url);
  const params = (() => {
    const p = parseAnalysisParams({});
    if (!p.ok) throw new Error(p.message);
    return p.params;
  })();

  it('replaces a crashed worker and answers its job with engine_crashed', async () => {
    const pool = new WorkerPool({ size: 1, workerUrl, setup: {}, jobTimeoutMs: 30_000 });
    try {
      const crashed = await pool.run('crash', params, 'full');
      expect(crashed.error_code).toBe('engine_crashed');
      expect(crashed.error_message).toContain('worker blew up');
      const next = await pool.run('hello', params, 'full');
      expect(next.error_message).toBe('ok hello');
    } finally {
      await pool.close();
    }
  });

  it('terminates a hung worker after the timeout and keeps serving', async () => {
    const pool = new WorkerPool({ size: 1, workerUrl, setup: {}, jobTimeoutMs: 1500 });
    try {
      const [hung, queued] = await Promise.all([pool.run('hang', params, 'full'), pool.run('after', params, 'full')]);
      expect(hung.error_code).toBe('engine_timeout');
      expect(queued.error_message).toBe('ok after');
    } finally {
      await pool.close();
    }
  });

  it('gives up with engine_unavailable when workers cannot even start', async () => {
    const pool = new WorkerPool({
      size: 1,
      workerUrl: new URL('./helpers/unstartable.worker.ts', import.meta.url),
      setup: {},
      jobTimeoutMs: 30_000,
    });
    try {
      const r = await pool.run('x', params, 'full');
      expect(r.error_code).toBe('engine_unavailable');
      expect(r.error_message).toContain('cannot load the engine');
      expect((await pool.run('y', params, 'full')).error_code).toBe('engine_unavailable');
    } finally {
      await pool.close();
    }
  });

  it('close() answers queued jobs and refuses new ones', async () => {
    const pool = new WorkerPool({ size: 1, workerUrl, setup: {}, jobTimeoutMs: 30_000 });
    const running = pool.run('hang', params, 'full');
    const queued = pool.run('later', params, 'full');
    await new Promise((r) => setTimeout(r, 200));
    await pool.close();
    expect((await queued).error_code).toBe('engine_closed');
    expect((await running).error_code).toBe('engine_closed');
    expect((await pool.run('x', params, 'full')).error_code).toBe('engine_closed');
  });
});

describe('things beside the slices', () => {
  it('finds a slice as white as the paper by its thin peel, not just its lesion', async () => {
    // white paper, lit a little unevenly; a near-white slice of radius 200 x 170 px in a 4 px brown peel, with a
    // blue-black lesion of radius 50 px: 0.74 PPD. Before, only the lesion stood out and was scored as a 10.
    const W = 800;
    const H = 600;
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const g = 1 - 0.06 * (x / W) - 0.04 * (y / H);
        const d = Math.hypot((x - 400) / 200, (y - 300) / 170);
        let c = [238 * g, 238 * g, 234 * g];
        if (d <= 1) c = d > 0.98 ? [120, 80, 55] : Math.hypot(x - 460, y - 300) < 50 ? [60, 62, 80] : [247, 245, 236];
        rgb.set(c.map(Math.round), (y * W + x) * 3);
      }
    }
    const r = await engine.analyse(
      await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
    expect(r.error_code).toBeNull();
    expect(r.cuts).toHaveLength(1);
    expect(r.cuts[0]!.w).toBeGreaterThan(380);
    expect(Math.abs(r.ppd_value! - 0.74)).toBeLessThan(0.15);
  });

  it('ignores a white sample label with dark writing', async () => {
    const slice = await drawSlicePng({ size: 500, blobs: [{ x: 250, y: 250, r: 60, soft: 2 }] });
    // a 260 x 120 px white card with five black "letters"
    const bars = Array.from({ length: 5 }, (_, i) => ({
      input: { create: { width: 22, height: 60, channels: 3 as const, background: '#111' } },
      left: 720 + i * 44,
      top: 520,
    }));
    const photo = await sharp({
      create: { width: 1000, height: 700, channels: 3, background: { r: 40, g: 80, b: 160 } },
    })
      .composite([
        { input: slice, left: 50, top: 100 },
        { input: { create: { width: 260, height: 120, channels: 3, background: '#f4f4f0' } }, left: 700, top: 490 },
        ...bars,
      ])
      .jpeg({ quality: 92 })
      .toBuffer();
    const r = await engine.analyse(photo);
    expect(r.error_code).toBeNull();
    expect(r.cuts).toHaveLength(1);
    expect(r.cuts[0]!.x).toBeLessThan(200);
  });
});
