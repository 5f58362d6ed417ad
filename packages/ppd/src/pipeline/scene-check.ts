import { REFUSAL_REASONS } from '@cassavascope/contract';
import { rgbToLab, type LabPlanes } from '../imaging/lab.js';
import { components } from '../imaging/mask-ops.js';
import { Histogram } from '../imaging/otsu.js';
import { isFoliage, isSliceTissue } from '../imaging/tissue-colours.js';
import type { RgbImage } from '../imaging/raster.js';
import type { SpecimenKind } from '../types.js';
import type { Specimen } from './first-segmentation.js';
import { isLeafGreen } from './leaf-scene.js';
import { SCENE_CHECK as T } from '../models/tuning.js';

/**
 * What kind of thing each found specimen is, and whether the photo is a specimen photo at all. The engine
 * scores cut root slices and detached leaves lying on a plain background; a field photo (leaves on the plant,
 * foliage or soil all round), a basket of whole roots or a document has no specimen to score honestly, and a
 * number for it would be a confident lie. Decided from colour classes of the tissue (cream flesh, green leaf)
 * and from the background around the specimens (plain, or foliage / heavy texture).
 */

export interface SpecimenVerdict {
  kind: SpecimenKind | null;
  /** 0-1: how clearly the specimen's tissue says what kind it is */
  kindCertainty: number;
  fleshShare: number;
  foliageShare: number;
  /** share of the specimen's outline on the photo's frame */
  frameShare: number;
  /** mean |gradient| of L* inside the specimen, per working pixel */
  texture: number;
  /** share of the flesh pixels in the largest connected body of flesh */
  fleshCohesion: number;
  /** mean L* and mean chroma of the specimen's pixels */
  meanL: number;
  meanChroma: number;
}

export interface SceneVerdict {
  specimens: SpecimenVerdict[];
  /** null when the photo can be scored; else why not */
  refusal: string | null;
  features: Record<string, number>;
}

/** Shares of flesh- and foliage-coloured pixels of a specimen, and how much of its outline is the frame. */
function specimenColours(
  lab: LabPlanes,
  s: Specimen,
  width: number,
  height: number,
  bg: { L: number; a: number; b: number },
): SpecimenVerdict {
  const rw = s.rect.x1 - s.rect.x0;
  const rh = s.rect.y1 - s.rect.y0;
  let n = 0;
  let flesh = 0;
  let foliage = 0;
  let edge = 0;
  let onFrame = 0;
  let grad = 0;
  let sumL = 0;
  let sumC = 0;
  for (let y = 0; y < rh; y++) {
    for (let x = 0; x < rw; x++) {
      if (!s.mask[y * rw + x]) continue;
      const gx = s.rect.x0 + x;
      const gy = s.rect.y0 + y;
      const i = gy * width + gx;
      n++;
      sumL += lab.L[i]!;
      sumC += Math.sqrt(lab.a[i]! ** 2 + lab.b[i]! ** 2);
      if (isSliceTissue(lab.L[i]!, lab.a[i]!, lab.b[i]!, bg.L, bg.a, bg.b)) flesh++;
      if (gx > 0 && gy > 0 && gx < width - 1 && gy < height - 1) {
        grad += Math.abs(lab.L[i + 1]! - lab.L[i - 1]!) / 2 + Math.abs(lab.L[i + width]! - lab.L[i - width]!) / 2;
      } else if (isFoliage(lab.L[i]!, lab.a[i]!, lab.b[i]!)) foliage++;
      const border =
        x === 0 ||
        y === 0 ||
        x === rw - 1 ||
        y === rh - 1 ||
        !s.mask[y * rw + x - 1] ||
        !s.mask[y * rw + x + 1] ||
        !s.mask[(y - 1) * rw + x] ||
        !s.mask[(y + 1) * rw + x];
      if (border) {
        edge++;
        if (gx <= 0 || gy <= 0 || gx >= width - 1 || gy >= height - 1) onFrame++;
      }
    }
  }
  const fleshShare = n ? flesh / n : 0;
  // how the flesh hangs together: one slice has one main body of flesh; a heap of roots shows several cut ends
  const fleshMask = new Uint8Array(rw * rh);
  for (let y = 0; y < rh; y++) {
    for (let x = 0; x < rw; x++) {
      const i = (s.rect.y0 + y) * width + s.rect.x0 + x;
      if (s.mask[y * rw + x] && isSliceTissue(lab.L[i]!, lab.a[i]!, lab.b[i]!, bg.L, bg.a, bg.b))
        fleshMask[y * rw + x] = 1;
    }
  }
  const comp = components(fleshMask, rw, rh, 8);
  let largest = 0;
  for (let id = 1; id <= comp.count; id++) largest = Math.max(largest, comp.areas[id]!);
  const fleshCohesion = flesh ? largest / flesh : 0;
  const foliageShare = n ? foliage / n : 0;
  return {
    kind: null,
    kindCertainty: 0,
    fleshShare,
    foliageShare,
    frameShare: edge ? onFrame / edge : 0,
    texture: n ? grad / n : 0,
    fleshCohesion,
    meanL: n ? sumL / n : 0,
    meanChroma: n ? sumC / n : 0,
  };
}

/**
 * The verdict with its kind: a new object of the one shape every verdict has (setting `kind` on a measured
 * verdict changed its hidden class photo after photo, and V8 threw the scene check's optimised code away).
 */
function named(v: SpecimenVerdict, kind: SpecimenKind | null, kindCertainty: number): SpecimenVerdict {
  return {
    kind,
    kindCertainty,
    fleshShare: v.fleshShare,
    foliageShare: v.foliageShare,
    frameShare: v.frameShare,
    texture: v.texture,
    fleshCohesion: v.fleshCohesion,
    meanL: v.meanL,
    meanChroma: v.meanChroma,
  };
}

/** Background texture, foliage and lightness: over pixels that are not specimen, away from specimens' edges. */
function backgroundStatistics(lab: LabPlanes, inSpecimen: Uint8Array) {
  const { width, height, L, a, b } = lab;
  let bg = 0;
  let bgFoliage = 0;
  let grad = 0;
  let gradN = 0;
  let sumL = 0;
  let sumL2 = 0;
  const hL = new Histogram(0, 100);
  const hA = new Histogram(-128, 128);
  const hB = new Histogram(-128, 128);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (inSpecimen[i] || inSpecimen[i + 1] || inSpecimen[i - 1] || inSpecimen[i + width] || inSpecimen[i - width])
        continue;
      bg++;
      sumL += L[i]!;
      sumL2 += L[i]! ** 2;
      hL.add(L[i]!);
      hA.add(a[i]!);
      hB.add(b[i]!);
      if (isFoliage(L[i]!, a[i]!, b[i]!)) bgFoliage++;
      grad += Math.abs(L[i + 1]! - L[i - 1]!) / 2 + Math.abs(L[i + width]! - L[i - width]!) / 2;
      gradN++;
    }
  }
  // the background's own colour: its median (marks and shadows on it are a minority)
  const colour = { L: hL.quantile(0.5), a: hA.quantile(0.5), b: hB.quantile(0.5) };
  return { bg, bgFoliage, grad, gradN, sumL, sumL2, colour };
}

/** Verdicts for the leaves of the leaf search: kind `leaf`, as certain as the leaf is green. */
export function leafVerdicts(lab: LabPlanes, leaves: Specimen[]): SpecimenVerdict[] {
  return leaves.map((s) => {
    const v = specimenColours(lab, s, lab.width, lab.height, { L: -100, a: 0, b: 0 });
    let green = 0;
    const rw = s.rect.x1 - s.rect.x0;
    for (let y = s.rect.y0; y < s.rect.y1; y++) {
      for (let x = s.rect.x0; x < s.rect.x1; x++) {
        const i = y * lab.width + x;
        if (s.mask[(y - s.rect.y0) * rw + x - s.rect.x0] && isLeafGreen(lab.L[i]!, lab.a[i]!, lab.b[i]!)) green++;
      }
    }
    // a leaf yellowed all over is still a leaf (the search found it through its green), only less plainly one
    return named(v, 'leaf', Math.min(1, 0.5 + green / s.area));
  });
}

export function checkScene(image: RgbImage, specimens: Specimen[], labPlanes?: LabPlanes): SceneVerdict {
  const { width, height } = image;
  const lab = labPlanes ?? rgbToLab(image.data, width, height);
  const n = width * height;
  const inSpecimen = new Uint8Array(n);
  for (const s of specimens) {
    const rw = s.rect.x1 - s.rect.x0;
    for (let y = s.rect.y0; y < s.rect.y1; y++) {
      for (let x = s.rect.x0; x < s.rect.x1; x++)
        if (s.mask[(y - s.rect.y0) * rw + (x - s.rect.x0)]) inSpecimen[y * width + x] = 1;
    }
  }
  const { bg, bgFoliage, grad, gradN, sumL, sumL2, colour } = backgroundStatistics(lab, inSpecimen);
  const bgMean = bg ? colour : { L: -100, a: 0, b: 0 };
  const texture = gradN ? grad / gradN : 0;
  const foliageBg = bg ? bgFoliage / bg : 0;
  const verdicts = specimens.map((s) => {
    const v = specimenColours(lab, s, width, height, bgMean);
    if (v.foliageShare >= T.leafMinFoliage && v.foliageShare > v.fleshShare) {
      return named(v, 'leaf', Math.min(1, v.foliageShare / 0.7));
    } else if (v.fleshShare >= T.sliceMinFlesh && v.fleshCohesion >= T.sliceMinCohesion) {
      return named(v, 'root_slice', Math.min(1, v.fleshShare / 0.4) * Math.min(1, v.fleshCohesion / 0.8));
    }
    return v;
  });
  const spreadL = bg ? Math.sqrt(Math.max(0, sumL2 / bg - (sumL / bg) ** 2)) : 0;
  const features = { texture, foliageBg, backgroundShare: bg / n, spreadL };
  let refusal: string | null = null;
  const leaves = verdicts.filter((v) => v.kind === 'leaf');
  const plain = spreadL < T.plainMaxSpread && texture <= T.maxBackgroundTexture;
  if (foliageBg >= T.maxBackgroundFoliage && spreadL >= T.plainMaxSpread) {
    refusal = REFUSAL_REASONS.field_or_canopy;
  } else if (leaves.length > 0 && leaves.every((v) => v.frameShare > T.leafMaxFrameShare)) {
    refusal = REFUSAL_REASONS.leaves_cut_by_frame;
  } else if (texture > T.maxBackgroundTexture && verdicts.every((v) => v.kind !== 'root_slice' || v.frameShare > 0.2)) {
    refusal = REFUSAL_REASONS.busy_background;
  } else if (
    verdicts.length >= T.inkMinCount &&
    verdicts.filter((v) => v.meanChroma < T.inkMaxChroma).length >= T.inkMinShare * verdicts.length
  ) {
    // rows of words, a printed form, a drawing: grey to black marks on paper, where slices show cream flesh
    refusal = REFUSAL_REASONS.document;
  } else if (verdicts.every((v) => v.kind === null)) {
    // on a plain background a specimen of no clear kind is most likely a slice discoloured through: scored
    // and flagged for review; elsewhere, or when its flesh shows as several cut ends, it is no specimen
    if (verdicts.some((v) => v.fleshShare >= T.sliceMinFlesh && v.fleshCohesion < T.sliceMinCohesion)) {
      refusal = REFUSAL_REASONS.whole_roots;
    } else if (!plain) {
      refusal = REFUSAL_REASONS.no_specimen_tissue;
    }
  }
  return { specimens: verdicts, refusal, features };
}
