import sharp from 'sharp';
import type { Box } from '../types.js';
import { gaussian, seededRandom } from './random.js';

/**
 * Synthetic photos of cassava root slices with a known discoloured area, for accuracy tests and benchmarks.
 * Each slice: an irregular disc of cream flesh inside a brown peel ring, a faint vascular ring, and
 * blue-black/brown streaks grown outwards-in from the vascular ring. Ground truth is counted from the rendered
 * masks (a pixel is discoloured when its lesion opacity is at least one half).
 */

export const BACKGROUNDS = ['light', 'dark', 'blue', 'wood', 'cloth'] as const;
export type BackgroundKind = (typeof BACKGROUNDS)[number];

export interface SceneOptions {
  width: number;
  height: number;
  seed: number;
  background?: BackgroundKind;
  /** 1-4 slices; with 4 the last is clearly smaller, so "the three largest" is well defined */
  slices?: number;
  /** target PPD per slice (0-10); random when absent */
  ppd?: number[];
  /** lighting gradient, colour cast, sensor noise and JPEG compression; on by default */
  realism?: boolean;
  jpegQuality?: number;
  /**
   * `standard`: cream flesh in a brown peel, brown to blue-black lesions. `variant`, a second make to check
   * the engine is not tuned to the first: no peel, whiter flesh, darker brown and grey-blue lesions,
   * more elongated slices.
   */
  style?: 'standard' | 'variant';
  /** slices in a row, each touching (slightly overlapping) the one before, as when laid out tightly */
  touching?: boolean;
  /**
   * A thin peel (1.5-3 % of the radius) with blue-black vascular-ring discolouration right inside it, where PPD
   * starts: the lesion must not be taken for peel. Only the standard style; off by default.
   */
  rimLesions?: boolean;
}

export interface SliceTruth {
  /** bounding box of the slice in image pixels */
  box: Box;
  /** 10 x discoloured pixels / slice pixels, from the rendered masks */
  ppd: number;
  area: number;
}

export interface Scene {
  /** 8-bit RGB pixels, row-major */
  rgb: Uint8Array;
  width: number;
  height: number;
  slices: SliceTruth[];
  background: BackgroundKind;
}

type Rgb = [number, number, number];

interface SliceSpec {
  cx: number;
  cy: number;
  r: number;
  aspect: number;
  tilt: number;
  wobble: [number, number, number, number];
  flesh: Rgb;
  peel: Rgb;
  targetShare: number;
  lesionSeed: number;
  /** flesh ends (peel starts) at this share of the radius */
  peelAt: number;
}

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

function backgroundColour(
  kind: BackgroundKind,
  x: number,
  y: number,
  rand: () => number,
  base: Rgb,
  alt: Rgb,
  phase: number,
): Rgb {
  switch (kind) {
    case 'wood': {
      const grain = 0.5 + 0.5 * Math.sin(x * 0.045 + 3 * Math.sin(y * 0.011 + phase) + 0.6 * Math.sin(x * 0.21));
      return [
        base[0] + (alt[0] - base[0]) * grain,
        base[1] + (alt[1] - base[1]) * grain,
        base[2] + (alt[2] - base[2]) * grain,
      ];
    }
    case 'cloth': {
      const weave = ((Math.floor(x / 3) + Math.floor(y / 3)) & 1) === 0 ? 1 : 0;
      const thread = 0.08 * Math.sin(x * 1.3) * Math.sin(y * 1.1);
      const t = weave * 0.6 + thread;
      return [base[0] + (alt[0] - base[0]) * t, base[1] + (alt[1] - base[1]) * t, base[2] + (alt[2] - base[2]) * t];
    }
    default:
      return base;
  }
}

function backgroundPalette(kind: BackgroundKind, rand: () => number): { base: Rgb; alt: Rgb } {
  const j = () => (rand() - 0.5) * 16;
  switch (kind) {
    case 'light':
      return { base: [232 + j(), 232 + j(), 228 + j()], alt: [0, 0, 0] };
    case 'dark':
      return { base: [28 + j(), 28 + j(), 32 + j()], alt: [0, 0, 0] };
    case 'blue':
      return { base: [35 + j(), 80 + j(), 165 + j()], alt: [0, 0, 0] };
    case 'wood':
      return { base: [150 + j(), 100 + j(), 58 + j()], alt: [195 + j(), 148 + j(), 95 + j()] };
    case 'cloth':
      return rand() < 0.5
        ? { base: [70 + j(), 110 + j(), 80 + j()], alt: [110 + j(), 150 + j(), 115 + j()] }
        : { base: [150 + j(), 40 + j(), 45 + j()], alt: [185 + j(), 80 + j(), 80 + j()] };
  }
}

function layout(n: number, width: number, height: number, rand: () => number): { cx: number; cy: number; r: number }[] {
  const cols = n <= 2 ? n : 2;
  const rows = Math.ceil(n / cols);
  const cellW = width / cols;
  const cellH = height / rows;
  const out: { cx: number; cy: number; r: number }[] = [];
  for (let i = 0; i < n; i++) {
    const col = i % cols;
    const row = Math.floor(i / cols);
    let r = Math.min(cellW, cellH) * (0.3 + 0.06 * rand());
    if (n === 4 && i === 3) r *= 0.7;
    const slackX = cellW / 2 - r * 1.15;
    const slackY = cellH / 2 - r * 1.15;
    out.push({
      cx: cellW * (col + 0.5) + (rand() - 0.5) * 2 * Math.max(0, slackX) * 0.6,
      cy: cellH * (row + 0.5) + (rand() - 0.5) * 2 * Math.max(0, slackY) * 0.6,
      r,
    });
  }
  return out;
}

/** Slices side by side, each overlapping the previous one by a few percent of its radius. */
function touchingLayout(
  n: number,
  width: number,
  height: number,
  rand: () => number,
): { cx: number; cy: number; r: number }[] {
  const base = Math.min(width / (2 * n + 0.8), height / 2.6);
  const radii = Array.from({ length: n }, (_, i) => base * (n === 4 && i === 3 ? 0.7 : 0.88 + 0.1 * rand()));
  const centres: number[] = [radii[0]!];
  for (let i = 1; i < n; i++) centres.push(centres[i - 1]! + (radii[i - 1]! + radii[i]!) * (0.94 + 0.03 * rand()));
  const span = centres[n - 1]! + radii[n - 1]!;
  const left = (width - span) / 2;
  return radii.map((r, i) => ({ cx: left + centres[i]!, cy: height / 2 + (rand() - 0.5) * 0.3 * r, r }));
}

/** Lesion field of one slice: high near the vascular ring and along a few radial streaks. */
function lesionField(rand: () => number): (rho: number, theta: number) => number {
  const k = 2 + Math.floor(rand() * 4);
  const waves = Array.from({ length: k }, () => ({
    n: 1 + Math.floor(rand() * 6),
    phase: rand() * 2 * Math.PI,
    amp: 0.4 + rand(),
  }));
  const blobs = Array.from({ length: 3 }, () => ({
    theta: rand() * 2 * Math.PI,
    rho: 0.3 + 0.5 * rand(),
    amp: 0.5 + rand(),
  }));
  const ringWeight = 0.6 + rand();
  return (rho, theta) => {
    let v = 0;
    for (const w of waves) v += w.amp * Math.cos(w.n * theta + w.phase + 2.2 * rho);
    for (const b of blobs) {
      const dx = rho * Math.cos(theta) - b.rho * Math.cos(b.theta);
      const dy = rho * Math.sin(theta) - b.rho * Math.sin(b.theta);
      v += b.amp * Math.exp(-(dx * dx + dy * dy) / 0.04);
    }
    // the vascular ring (rho ~ 0.85) is where PPD starts; streaks spread inwards from it
    v += ringWeight * Math.exp(-((rho - 0.85) ** 2) / 0.02);
    v += 0.15 * Math.sin(theta * 23 + rho * 17) * Math.cos(theta * 11 - rho * 29);
    return v;
  };
}

/** Renders a scene; deterministic for a given seed and options. */
export function renderScene(options: SceneOptions): Scene {
  const { width, height } = options;
  const rand = seededRandom(options.seed);
  const kind = options.background ?? BACKGROUNDS[Math.floor(rand() * BACKGROUNDS.length)]!;
  const n = Math.min(4, Math.max(1, options.slices ?? 1 + Math.floor(rand() * 3)));
  const realism = options.realism ?? true;
  const variant = options.style === 'variant';
  const palette = backgroundPalette(kind, rand);
  const phase = rand() * 10;

  const positions = options.touching ? touchingLayout(n, width, height, rand) : layout(n, width, height, rand);
  const specs: SliceSpec[] = positions.map((p, i) => {
    const cultivar = rand();
    const flesh: Rgb = variant
      ? [245, 240 - 15 * cultivar, 225 - 45 * cultivar]
      : [238 + 12 * rand() - 6, 226 + 12 * rand() - 6 - 10 * cultivar, 192 + 20 * rand() - 10 - 25 * cultivar];
    const peel: Rgb = [120 + 30 * rand(), 78 + 20 * rand(), 52 + 15 * rand()];
    const ppd = options.ppd?.[i] ?? rand() * 10;
    return {
      cx: p.cx,
      cy: p.cy,
      r: p.r,
      aspect: variant ? 0.6 + 0.4 * rand() : 0.85 + 0.15 * rand(),
      tilt: rand() * Math.PI,
      wobble: [0.03 * rand(), rand() * 6.28, 0.02 * rand(), rand() * 6.28],
      flesh,
      peel,
      targetShare: Math.min(1, Math.max(0, ppd / 10)),
      lesionSeed: Math.floor(rand() * 1e9),
      peelAt: variant ? 1 : 0.955,
    };
  });
  const rim = options.rimLesions === true && !variant;
  // drawn only for rim scenes, so every other scene keeps its random sequence
  if (rim) for (const s of specs) s.peelAt = 0.97 - 0.015 * rand();
  if (options.touching) {
    // Each slice's half-width along x (tilted ellipse), then the row packed so neighbours overlap a little.
    const halfWidth = (s: SliceSpec) => s.r * Math.hypot(Math.cos(s.tilt), s.aspect * Math.sin(s.tilt));
    for (let i = 1; i < specs.length; i++) {
      specs[i]!.cx = specs[i - 1]!.cx + (halfWidth(specs[i - 1]!) + halfWidth(specs[i]!)) * 0.95;
    }
    const left = specs[0]!.cx - halfWidth(specs[0]!);
    const right = specs[specs.length - 1]!.cx + halfWidth(specs[specs.length - 1]!);
    const shift = (width - right - left) / 2; // centred: equal margins left and right
    for (const s of specs) s.cx += shift;
  }

  const W = width;
  const H = height;
  const owner = new Int8Array(W * H).fill(-1);
  const rhoAt = new Float32Array(W * H);
  const thetaAt = new Float32Array(W * H);
  // pass 1: which slice owns each pixel and where in it
  specs.forEach((s, idx) => {
    const reach = s.r * 1.1;
    for (let y = Math.max(0, Math.floor(s.cy - reach)); y < Math.min(H, Math.ceil(s.cy + reach)); y++) {
      for (let x = Math.max(0, Math.floor(s.cx - reach)); x < Math.min(W, Math.ceil(s.cx + reach)); x++) {
        const dx = x + 0.5 - s.cx;
        const dy = y + 0.5 - s.cy;
        const u = dx * Math.cos(s.tilt) + dy * Math.sin(s.tilt);
        const v = (-dx * Math.sin(s.tilt) + dy * Math.cos(s.tilt)) / s.aspect;
        const theta = Math.atan2(v, u);
        const edge =
          s.r * (1 + s.wobble[0] * Math.sin(3 * theta + s.wobble[1]) + s.wobble[2] * Math.sin(5 * theta + s.wobble[3]));
        const rho = Math.sqrt(u * u + v * v) / edge;
        if (rho <= 1) {
          owner[y * W + x] = idx;
          rhoAt[y * W + x] = rho;
          thetaAt[y * W + x] = theta;
        }
      }
    }
  });

  // pass 2: lesion opacity per slice, its cut chosen so the flesh carries the target discoloured share
  const alpha = new Float32Array(W * H);
  const tone = new Float32Array(W * H);
  specs.forEach((s, idx) => {
    const lr = seededRandom(s.lesionSeed);
    const base = lesionField(lr);
    const toneField = lesionField(lr);
    // rim scenes: a band of vascular-ring discolouration just inside the peel, blue-black
    const ringAt = s.peelAt - 0.035;
    const field = rim
      ? (rho: number, theta: number) => base(rho, theta) + 2.5 * Math.exp(-((rho - ringAt) ** 2) / 0.0012)
      : base;
    const fleshIdx: number[] = [];
    const values: number[] = [];
    for (let i = 0; i < owner.length; i++) {
      if (owner[i] !== idx || rhoAt[i]! > s.peelAt) continue;
      fleshIdx.push(i);
      values.push(field(rhoAt[i]!, thetaAt[i]!));
    }
    const sorted = Float64Array.from(values).sort();
    const softness = 0.08;
    const cut =
      s.targetShare <= 0
        ? Infinity
        : s.targetShare >= 1
          ? -Infinity
          : sorted[Math.floor((1 - s.targetShare) * (sorted.length - 1))]!;
    fleshIdx.forEach((p, k) => {
      const a = Number.isFinite(cut) ? 0.5 + (values[k]! - cut) / softness : cut === -Infinity ? 1 : 0;
      alpha[p] = Math.min(1, Math.max(0, a));
      tone[p] = rim
        ? 0.85 + 0.15 * Math.tanh(toneField(rhoAt[p]!, thetaAt[p]!))
        : 0.5 + 0.5 * Math.tanh(toneField(rhoAt[p]!, thetaAt[p]!) - 1);
    });
  });

  // pass 3: colours
  const gx = realism ? (rand() - 0.5) * 0.35 : 0;
  const gy = realism ? (rand() - 0.5) * 0.25 : 0;
  const cast: Rgb = realism
    ? [1 + (rand() - 0.5) * 0.12, 1 + (rand() - 0.5) * 0.08, 1 + (rand() - 0.5) * 0.12]
    : [1, 1, 1];
  const noise = realism ? 2 + 3 * rand() : 0;
  const shadow = realism && (kind === 'light' || kind === 'wood' || kind === 'cloth');
  const BROWN: Rgb = variant ? [105, 70, 45] : [135, 92, 55];
  const BLUEBLACK: Rgb = variant ? [70, 78, 96] : [52, 56, 74];
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const o = owner[i]!;
      let c: Rgb;
      if (o < 0) {
        c = backgroundColour(kind, x, y, rand, palette.base, palette.alt, phase);
        if (shadow) {
          for (const s of specs) {
            const d = Math.hypot(x - s.cx - s.r * 0.05, y - s.cy - s.r * 0.07) / (s.r * 1.08);
            if (d < 1.1)
              c = [
                c[0] * (0.82 + 0.18 * Math.min(1, Math.max(0, (d - 0.9) / 0.2))),
                c[1] * (0.82 + 0.18 * Math.min(1, Math.max(0, (d - 0.9) / 0.2))),
                c[2] * (0.82 + 0.18 * Math.min(1, Math.max(0, (d - 0.9) / 0.2))),
              ];
          }
        }
      } else {
        const s = specs[o]!;
        const rho = rhoAt[i]!;
        if (rho > s.peelAt) {
          c = [...s.peel];
        } else {
          const ring = Math.exp(-((rho - 0.86) ** 2) / 0.0004) * 0.06;
          c = [s.flesh[0] * (1 - ring * 0.5), s.flesh[1] * (1 - ring * 0.3), s.flesh[2] * (1 - ring * 1.2)];
          const a = alpha[i]!;
          if (a > 0) {
            const t = tone[i]!;
            const lesion: Rgb = [
              BROWN[0] + (BLUEBLACK[0] - BROWN[0]) * t,
              BROWN[1] + (BLUEBLACK[1] - BROWN[1]) * t,
              BROWN[2] + (BLUEBLACK[2] - BROWN[2]) * t,
            ];
            c = [c[0] + (lesion[0] - c[0]) * a, c[1] + (lesion[1] - c[1]) * a, c[2] + (lesion[2] - c[2]) * a];
          }
        }
      }
      const light = 1 + gx * (x / W - 0.5) * 2 + gy * (y / H - 0.5) * 2;
      const j = i * 3;
      rgb[j] = clamp255(c[0] * light * cast[0] + (noise ? gaussian(rand) * noise : 0));
      rgb[j + 1] = clamp255(c[1] * light * cast[1] + (noise ? gaussian(rand) * noise : 0));
      rgb[j + 2] = clamp255(c[2] * light * cast[2] + (noise ? gaussian(rand) * noise : 0));
    }
  }

  const slices: SliceTruth[] = specs.map((_, idx) => {
    let area = 0;
    let lesion = 0;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    for (let i = 0; i < owner.length; i++) {
      if (owner[i] !== idx) continue;
      area++;
      if (alpha[i]! >= 0.5) lesion++;
      const x = i % W;
      const y = (i - x) / W;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    return { box: { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }, ppd: area > 0 ? (10 * lesion) / area : 0, area };
  });
  return { rgb, width: W, height: H, slices, background: kind };
}

/** The scene as a JPEG (quality from the options, 75-92 at random when realism is on). */
export async function sceneJpeg(scene: Scene, quality = 88): Promise<Buffer> {
  return sharp(scene.rgb, { raw: { width: scene.width, height: scene.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** A scene rendered and encoded in one go. */
export async function renderSceneJpeg(options: SceneOptions): Promise<{ jpeg: Buffer; scene: Scene }> {
  const scene = renderScene(options);
  const rand = seededRandom(options.seed ^ 0x5bd1e995);
  const quality = options.jpegQuality ?? ((options.realism ?? true) ? 75 + Math.floor(rand() * 18) : 95);
  return { jpeg: await sceneJpeg(scene, quality), scene };
}
