import sharp from 'sharp';
import { gaussian, seededRandom } from './random.js';

/**
 * A generated detached leaf: one lanceolate leaf (dark to pale green, a paler midrib, shading) lying on a
 * plain background, with round spots (brown, dark brown or black necrosis, some with a yellow halo), rendered
 * with noise and JPEG. The truth is the spots' share of the leaf's pixels, counted from the rendered masks.
 * A sanity check of the leaf path, not its judge (real leaves are: ../shared/real-photos/leaves).
 */
export const LEAF_BACKGROUNDS = ['white', 'grey', 'black', 'blue', 'wood'] as const;
export type LeafBackground = (typeof LEAF_BACKGROUNDS)[number];

export interface LeafSceneOptions {
  width: number;
  height: number;
  seed: number;
  background: LeafBackground;
  /** number of spots (2-20 at random when absent) */
  spots?: number;
  /** the leaf yellowed all over (chlorosis): every leaf pixel symptomatic */
  yellowed?: boolean;
  /** sensor noise, standard deviation in 8-bit levels (3 when absent) */
  noise?: number;
}

export interface LeafScene {
  rgb: Uint8Array;
  width: number;
  height: number;
  leafPixels: number;
  spotPixels: number;
  /** spots' share of the leaf x 10 */
  truthPpd: number;
}

type Rgb = [number, number, number];

const BG: Record<LeafBackground, Rgb> = {
  white: [236, 234, 230],
  grey: [150, 150, 152],
  black: [22, 22, 24],
  blue: [40, 78, 160],
  wood: [168, 120, 74],
};

export function renderLeafScene(o: LeafSceneOptions): LeafScene {
  const rand = seededRandom(o.seed);
  const W = o.width;
  const H = o.height;
  const rgb = new Uint8Array(W * H * 3);
  // leaf: axis through the middle at an angle, length 60-80 % of the short side... up to the long one
  const cx = W * (0.45 + 0.1 * rand());
  const cy = H * (0.45 + 0.1 * rand());
  const angle = rand() * Math.PI;
  const half = 0.5 * Math.min(W, H) * (0.75 + 0.2 * rand());
  const halfWidth = half * (0.3 + 0.15 * rand());
  const cosA = Math.cos(angle);
  const sinA = Math.sin(angle);
  const pale = rand();
  const green: Rgb = o.yellowed
    ? [185 + 20 * pale, 175 + 20 * pale, 50 + 20 * pale]
    : [35 + 60 * pale, 85 + 75 * pale, 25 + 40 * pale];
  const count = o.spots ?? 2 + Math.floor(rand() * 19);
  const spots = Array.from({ length: count }, () => {
    // a spot centre inside the leaf
    const u = (rand() * 1.4 - 0.7) * half;
    const limit = halfWidth * Math.pow(Math.max(0, 1 - (u / half) ** 2), 0.8);
    const v = (rand() * 1.4 - 0.7) * limit;
    const r = halfWidth * (0.04 + 0.16 * rand());
    const kind = rand();
    const colour: Rgb = kind < 0.4 ? [120, 78, 40] : kind < 0.75 ? [70, 45, 28] : [30, 26, 22];
    return { u, v, r, colour, halo: rand() < 0.3 ? r * 0.35 : 0 };
  });
  const wood = o.background === 'wood';
  const bg = BG[o.background];
  const gx = (rand() - 0.5) * 16;
  let leafPixels = 0;
  let spotPixels = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const u = dx * cosA + dy * sinA;
      const v = -dx * sinA + dy * cosA;
      const limit = Math.abs(u) < half ? halfWidth * Math.pow(1 - (u / half) ** 2, 0.8) : -1;
      let c: Rgb;
      if (Math.abs(v) <= limit) {
        leafPixels++;
        // shading across the blade, a paler midrib
        const shade = 1 - 0.12 * Math.abs(v / Math.max(1, limit)) + 0.05 * Math.sin(u * 0.05);
        c = [green[0] * shade, green[1] * shade, green[2] * shade];
        if (Math.abs(v) < 1.5 && !o.yellowed) c = [c[0] + 25, c[1] + 25, c[2] + 10];
        let spot = false;
        for (const s of spots) {
          const d = Math.hypot(u - s.u, v - s.v);
          if (d <= s.r) {
            c = [...s.colour];
            spot = true;
            break;
          }
          if (d <= s.r + s.halo) {
            c = [200, 190, 70];
            spot = true;
          }
        }
        if (spot || o.yellowed) spotPixels++;
      } else {
        const grain = wood ? 0.5 + 0.5 * Math.sin(x * 0.04 + 2 * Math.sin(y * 0.01)) : 0;
        c = [bg[0] + gx * (x / W) + 25 * grain, bg[1] + gx * (x / W) + 20 * grain, bg[2] + gx * (x / W) + 12 * grain];
      }
      const n = (o.noise ?? 3) * gaussian(rand);
      const i = 3 * (y * W + x);
      rgb[i] = Math.max(0, Math.min(255, Math.round(c[0] + n)));
      rgb[i + 1] = Math.max(0, Math.min(255, Math.round(c[1] + n)));
      rgb[i + 2] = Math.max(0, Math.min(255, Math.round(c[2] + n)));
    }
  }
  return { rgb, width: W, height: H, leafPixels, spotPixels, truthPpd: (10 * spotPixels) / Math.max(1, leafPixels) };
}

/** The leaf scene as a JPEG. */
export async function renderLeafJpeg(o: LeafSceneOptions, quality = 88): Promise<{ jpeg: Buffer; scene: LeafScene }> {
  const scene = renderLeafScene(o);
  const jpeg = await sharp(scene.rgb, { raw: { width: scene.width, height: scene.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
  return { jpeg, scene };
}
