import type { LabPlanes } from '../imaging/lab.js';
import { boundaryDistance } from '../imaging/mask-ops.js';
import { LEAF_LESION as T } from './tuning.js';

/**
 * Symptoms of a detached leaf: the leaf's own healthy green is the reference (any green: dark or pale, glossy
 * or matte), and a pixel is symptomatic when it has left green: turned toward yellow (chlorosis, mosaic),
 * brown (necrotic spots, lesions), or grey to black (dead tissue). A glare on a glossy leaf (near-neutral and
 * lighter than the leaf) and a vein (still green, a little paler) are healthy. P(symptom) per pixel of `mask`.
 */
export function leafLesionProbability(lab: LabPlanes, mask: Uint8Array): Float32Array {
  const p = new Float32Array(mask.length);
  // the outline's pixels blend leaf and background (paler, greyer, yellower than the leaf): only a brown
  // spot counts there
  const edge = boundaryDistance(mask, lab.width, lab.height);
  const ring = Math.max(T.edgeRingMin, Math.round(Math.max(lab.width, lab.height) * T.edgeRingShare));
  const ref = leafGreen(lab, mask);
  if (!ref) {
    // no green at all: a leaf yellowed or browned all over reads high
    for (let i = 0; i < p.length; i++) if (mask[i]) p[i] = 1;
    return p;
  }
  const sig = (x: number) => 1 / (1 + Math.exp(-x));
  for (let i = 0; i < p.length; i++) {
    if (!mask[i]) continue;
    const L = lab.L[i]!;
    const a = lab.a[i]!;
    const b = lab.b[i]!;
    const c = Math.sqrt(a * a + b * b);
    const onEdge = edge[i]! <= ring;
    if (c < T.neutralChroma) {
      if (onEdge) continue;
      // glare when lighter than the leaf, a grey or black spot when not
      p[i] = sig((ref.L + T.glareLightening - L) / 3);
      continue;
    }
    const hue = (Math.atan2(b, a) * 180) / Math.PI;
    if (hue < T.brownMaxHue && hue > -90 && c >= T.brownMinChroma) {
      p[i] = 1;
      continue;
    }
    if (onEdge) continue;
    // degrees toward yellow (positive), plus a share for being paler than the healthy green
    const shift = ref.hue - hue + T.lighteningWeight * Math.max(0, L - ref.L - T.lighteningFree);
    p[i] = sig((shift - T.chloroticHueShift) / T.hueSlope);
  }
  return p;
}

/**
 * The green pixels' L* and hue, kept between calls (each worker thread has its own) and grown for a larger
 * leaf: sorted in place, as typed arrays (a number[] sorted with a comparator took a third of a leaf photo's
 * time; issue 22, speed).
 */
let greenL = new Float64Array(0);
let greenHue = new Float64Array(0);

/** The leaf's healthy green: L* and hue of its clearly green pixels; null when under 10 % are green. */
function leafGreen(lab: LabPlanes, mask: Uint8Array): { L: number; hue: number } | null {
  if (greenL.length < mask.length) {
    greenL = new Float64Array(mask.length);
    greenHue = new Float64Array(mask.length);
  }
  let count = 0;
  let total = 0;
  const step = 1;
  for (let i = 0; i < mask.length; i += step) {
    if (!mask[i]) continue;
    total++;
    const a = lab.a[i]!;
    const b = lab.b[i]!;
    if (a >= -6 || a * a + b * b < T.referenceMinChroma ** 2) continue;
    const hue = (Math.atan2(b, a) * 180) / Math.PI;
    if (hue < 95 || hue > 175) continue;
    greenL[count] = lab.L[i]!;
    greenHue[count] = hue;
    count++;
  }
  if (count < 0.1 * total || count === 0) return null;
  const at = (v: Float64Array, q: number) => v.subarray(0, count).sort()[Math.floor(q * (count - 1))]!;
  // a leaf yellowed all over has no healthy green of its own: it is compared with the yellowest healthy green
  return { L: at(greenL, 0.5), hue: Math.max(T.minHealthyHue, at(greenHue, T.referenceHueQuantile)) };
}
