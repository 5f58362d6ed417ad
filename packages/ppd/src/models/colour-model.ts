import type { EngineInfo } from '@cassavascope/contract';
import { boxBlur, rgbToLab } from '../imaging/lab.js';
import { countOnes, dilate, erode } from '../imaging/mask-ops.js';
import { otsu, quantile } from '../imaging/otsu.js';
import type { RgbImage } from '../imaging/raster.js';
import type { SegmentationModel } from './segmentation-model.js';

export const COLOUR_ENGINE_INFO: EngineInfo = { name: 'colour', label: 'Colour segmentation (CIELAB)', kind: 'colour' };

/** Lightness counts half in background distances: shading and vignetting move L far more than hue. */
const BG_L_WEIGHT = 0.5;
/** Background distance (weighted CIELAB units) below which a pixel is never a specimen: uniform scenes find nothing. */
const BG_MIN_CUT = 9;
/** Discolouration distance (CIELAB units from the specimen's healthy colour) used when no clear valley exists. */
const LESION_DEFAULT_CUT = 18;
const LESION_MIN_CUT = 12;
const LESION_MAX_CUT = 32;
/** The peel ring, as a share of a specimen's equivalent radius: brown by nature, so not discolouration on its own. */
const PEEL_SHARE = 0.045;

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

interface Cluster {
  L: number;
  a: number;
  b: number;
  spread: number;
  share: number;
}

/** k-means on the border strip: a few colours describe plain, graded, wood-grain or cloth backgrounds. */
function backgroundClusters(L: Float32Array, A: Float32Array, B: Float32Array, width: number, height: number): Cluster[] {
  const strip = Math.max(2, Math.round(Math.min(width, height) * 0.03));
  const idx: number[] = [];
  for (let y = 0; y < height; y++) {
    const edgeRow = y < strip || y >= height - strip;
    for (let x = 0; x < width; x++) if (edgeRow || x < strip || x >= width - strip) idx.push(y * width + x);
  }
  const step = Math.max(1, Math.floor(idx.length / 4000));
  const sL: number[] = [];
  const sa: number[] = [];
  const sb: number[] = [];
  for (let i = 0; i < idx.length; i += step) {
    const p = idx[i]!;
    sL.push(L[p]! * BG_L_WEIGHT);
    sa.push(A[p]!);
    sb.push(B[p]!);
  }
  const n = sL.length;
  const k = Math.min(4, n);
  // Seeds spread over the lightness order, so dark and light grain both get a centre.
  const order = sL.map((v, i) => [v, i] as const).sort((p, q) => p[0] - q[0]);
  const cL: number[] = [];
  const ca: number[] = [];
  const cb: number[] = [];
  for (let j = 0; j < k; j++) {
    const s = order[Math.floor(((j + 0.5) / k) * n)]![1];
    cL.push(sL[s]!);
    ca.push(sa[s]!);
    cb.push(sb[s]!);
  }
  const assign = new Int32Array(n);
  for (let iter = 0; iter < 10; iter++) {
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Infinity;
      for (let j = 0; j < k; j++) {
        const d = (sL[i]! - cL[j]!) ** 2 + (sa[i]! - ca[j]!) ** 2 + (sb[i]! - cb[j]!) ** 2;
        if (d < bestD) {
          bestD = d;
          best = j;
        }
      }
      assign[i] = best;
    }
    for (let j = 0; j < k; j++) {
      let m = 0;
      let tL = 0;
      let ta = 0;
      let tb = 0;
      for (let i = 0; i < n; i++) {
        if (assign[i] !== j) continue;
        m++;
        tL += sL[i]!;
        ta += sa[i]!;
        tb += sb[i]!;
      }
      if (m > 0) {
        cL[j] = tL / m;
        ca[j] = ta / m;
        cb[j] = tb / m;
      }
    }
  }
  const clusters: Cluster[] = [];
  for (let j = 0; j < k; j++) {
    let m = 0;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      if (assign[i] !== j) continue;
      m++;
      sq += (sL[i]! - cL[j]!) ** 2 + (sa[i]! - ca[j]!) ** 2 + (sb[i]! - cb[j]!) ** 2;
    }
    if (m > 0) clusters.push({ L: cL[j]!, a: ca[j]!, b: cb[j]!, spread: Math.sqrt(sq / m), share: m / n });
  }
  // A specimen touching the frame adds a small cluster of its own colour: ignore minor clusters.
  const major = clusters.filter((c) => c.share >= 0.08);
  return major.length > 0 ? major : clusters;
}

export function createColourModel(): SegmentationModel {
  return {
    info: COLOUR_ENGINE_INFO,

    async specimenProbability(image: RgbImage): Promise<Float32Array> {
      const { width, height } = image;
      const lab = rgbToLab(image.data, width, height);
      const r = Math.max(1, Math.round(Math.max(width, height) / 300));
      const L = boxBlur(lab.L, width, height, r);
      const A = boxBlur(lab.a, width, height, r);
      const B = boxBlur(lab.b, width, height, r);
      const clusters = backgroundClusters(L, A, B, width, height);
      const n = width * height;
      const dist = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const l = L[i]! * BG_L_WEIGHT;
        const a = A[i]!;
        const b = B[i]!;
        let best = Infinity;
        for (const c of clusters) {
          const d = Math.sqrt((l - c.L) ** 2 + (a - c.a) ** 2 + (b - c.b) ** 2) - 1.5 * c.spread;
          if (d < best) best = d;
        }
        dist[i] = best > 0 ? best : 0;
      }
      const hi = Math.max(BG_MIN_CUT * 2, quantile(dist, 0.995));
      const { cut: otsuCut } = otsu(dist, 0, hi);
      const cut = Math.max(BG_MIN_CUT, otsuCut);
      const slope = 0.15 * cut + 1;
      const p = new Float32Array(n);
      for (let i = 0; i < n; i++) p[i] = sigmoid((dist[i]! - cut) / slope);
      return p;
    },

    async lesionProbability(cut: RgbImage, mask: Uint8Array): Promise<Float32Array> {
      const { width, height } = cut;
      const lab = rgbToLab(cut.data, width, height);
      const area = countOnes(mask);
      const p = new Float32Array(width * height);
      if (area === 0) return p;
      const ring = Math.max(1, Math.round(PEEL_SHARE * Math.sqrt(area / Math.PI)));
      let inner = erode(mask, width, height, 2 * ring + 1);
      if (countOnes(inner) < 0.3 * area) inner = mask;

      // Healthy reference: the lighter part of the specimen's interior (healthy flesh is the lightest tissue).
      const lq = quantile(lab.L, 0.7, inner);
      const top = new Uint8Array(width * height);
      for (let i = 0; i < top.length; i++) top[i] = inner[i] && lab.L[i]! >= lq ? 1 : 0;
      const refL = quantile(lab.L, 0.5, top);
      const refA = quantile(lab.a, 0.5, top);
      const refB = quantile(lab.b, 0.5, top);

      const dist = new Float32Array(width * height);
      for (let i = 0; i < dist.length; i++) {
        if (!mask[i]) continue;
        const dL = Math.max(0, refL - lab.L[i]!);
        const dC2 = (lab.a[i]! - refA) ** 2 + (lab.b[i]! - refB) ** 2;
        dist[i] = Math.sqrt(dL * dL + 0.6 * dC2);
      }
      const o = otsu(dist, 0, 90, inner);
      const cutAt = o.separation >= 0.6 ? Math.min(LESION_MAX_CUT, Math.max(LESION_MIN_CUT, o.cut)) : LESION_DEFAULT_CUT;
      const slope = 0.2 * cutAt;
      for (let i = 0; i < p.length; i++) if (mask[i]) p[i] = sigmoid((dist[i]! - cutAt) / slope);

      // Peel: keep ring pixels only where discolouration reaches them from the interior.
      const innerLesion = new Uint8Array(p.length);
      for (let i = 0; i < p.length; i++) innerLesion[i] = inner[i] && p[i]! >= 0.5 ? 1 : 0;
      const reach = dilate(innerLesion, width, height, 4 * ring + 1);
      for (let i = 0; i < p.length; i++) if (mask[i] && !inner[i] && !reach[i]) p[i] = 0;
      return p;
    },

    async close() {},
  };
}
