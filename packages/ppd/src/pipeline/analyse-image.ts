import { severityOf } from '@cassavascope/contract';
import { rgbToLab, type LabPlanes } from '../imaging/lab.js';
import type { AnalyseOptions } from '../learned/lab-model-api.js';
import { encodeLabelPng, proposalLabels } from '../learned/proposal-labels.js';
import { cropRgb, halve, type Rect, type RgbImage } from '../imaging/raster.js';
import type { SegmentationModel } from '../models/segmentation-model.js';
import { drawOverview, encodeWebp, overlayLesions } from '../render/visualise.js';
import type { AnalysisMode, AnalysisParams, AnalysisResult, Box, SpecimenKind, SpecimenResult } from '../types.js';
import { decodeImage } from './decode-image.js';
import { findSpecimens, upscaleSpecimen, type Specimen } from './first-segmentation.js';
import { checkScene, leafVerdicts, type SpecimenVerdict } from './scene-check.js';
import { findLeaves } from './leaf-scene.js';
import { isClothBlue } from '../imaging/tissue-colours.js';
import { lesionProbability, scoreCut } from './second-segmentation.js';

/**
 * Sizes in the parameters (`min_size`, `morph_kernel_size`) are pixels of the photo as taken, as a researcher
 * reads them, not of the engine's 1024-px working copy: on a 12 MP tray photo, 100 px is a speck, and read on
 * the working copy it was a whole CBSD streak (a 4000 x 3000 tray's slice is ~150 working px across). A photo
 * smaller than VGA (a 150-px crop of one slice, a thumbnail) counts as enlarged to 640 px, for the same reason
 * (on the real CBSD crops: slice MAE 0.55 -> 0.40 against the person's labels).
 */
const PARAMS_LEAST_SIDE = 640;

export function scaledParams(
  params: AnalysisParams,
  width: number,
  height: number,
  originalWidth: number,
  originalHeight: number,
): AnalysisParams {
  const side = Math.max(width, height);
  const original = Math.max(originalWidth, originalHeight);
  const scale = (side / original) * Math.min(1, original / PARAMS_LEAST_SIDE);
  if (scale >= 1) return params;
  const kernel = Math.max(1, 2 * Math.round((params.morph_kernel_size * scale - 1) / 2) + 1);
  return { ...params, min_size: params.min_size * scale * scale, morph_kernel_size: kernel };
}

/** Working images longer than this run the first segmentation at half size. */
const HALVE_ABOVE = 600;

/** A specimen this much less confident than that is flagged for a person to look at. */
export const REVIEW_BELOW = 0.6;
/** A slice with more than this share of its outline on the frame, beside others, is a neighbour cut off. */
const CUT_BY_FRAME = 0.15;
/** A specimen of no recognisable kind is kept (flagged) only when at least this share of the median specimen. */
const UNKNOWN_KIND_MIN_SHARE = 0.5;
const WHAT_WORKS =
  'Photograph cut root slices (or detached leaves) laid flat on a plain board, tray or paper, from above.';
const NO_SPECIMEN_MESSAGE = `No specimen stands out from the background. ${WHAT_WORKS}`;

/**
 * How far a specimen's reading can be trusted, 0-1: the lesion decisions' own certainty (mean |2p - 1|), times
 * how plainly its tissue says what it is (cream flesh, green leaf), times how whole its outline is (a specimen
 * cut off by the frame has an unknown area), times how typical its size is among the photo's specimens (a
 * fragment or two slices taken as one stand out).
 */
function specimenConfidence(lesionCertainty: number, v: SpecimenVerdict, sizeRatio: number): number {
  const kind = v.kind === null ? 0.3 : 0.5 + 0.5 * v.kindCertainty;
  const outline = 1 - 0.6 * v.frameShare;
  const size = sizeRatio < 0.4 ? 0.6 + sizeRatio : sizeRatio > 2.2 ? 0.8 : 1;
  return Math.max(0, Math.min(1, lesionCertainty * kind * outline * size));
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const seconds = (fromMs: number) => (performance.now() - fromMs) / 1000;

export function failedResult(
  code: string,
  message: string,
  startedMs: number,
  timings: Record<string, number> = {},
): AnalysisResult {
  return {
    ppd_value: null,
    sub_ppd_values: [],
    cuts: [],
    specimens: [],
    needs_review: false,
    prediction: null,
    confidence: null,
    processing_time: Math.round(seconds(startedMs) * 1000) / 1000,
    images: { cut2: [], pred: [], overview: null },
    error_code: code,
    error_message: message,
    timings,
  };
}

/** Maps a working-image rectangle to original-image pixels (after EXIF orientation). */
function toOriginal(r: Rect, sx: number, sy: number, ow: number, oh: number): Box {
  const x = Math.min(ow - 1, Math.max(0, Math.round(r.x0 * sx)));
  const y = Math.min(oh - 1, Math.max(0, Math.round(r.y0 * sy)));
  const x1 = Math.min(ow, Math.max(x + 1, Math.round(r.x1 * sx)));
  const y1 = Math.min(oh, Math.max(y + 1, Math.round(r.y1 * sy)));
  return { x, y, w: x1 - x, h: y1 - y };
}

/**
 * P(specimen) 0 wherever the colour is cloth blue. Per-pixel loops live in small functions of their own
 * throughout the engine: V8 optimises those whole, while a loop inside a long, once-a-photo function (as this
 * one was in `findAndCheck`) runs in baseline code, and is recompiled photo after photo (issue 22, speed).
 */
function dropClothBlue(prob: Float32Array, lab: LabPlanes): void {
  const { a, b } = lab;
  for (let i = 0; i < prob.length; i++) if (isClothBlue(a[i]!, b[i]!)) prob[i] = 0;
}

/**
 * First segmentation and scene check: the specimens (in pixels of `small`), what each is, and why the photo is
 * refused, if it is. Detached leaves are looked for first (their own search: a leaf running past the frame is
 * no background); when the photo shows none, root slices are. `kind` other than `auto` is the user's word:
 * nothing else is looked for, and every specimen is of that kind.
 */
async function findAndCheck(
  model: SegmentationModel,
  small: RgbImage,
  lab: LabPlanes,
  minSpecimen: number,
  kind: 'auto' | SpecimenKind,
): Promise<{ specimens: Specimen[]; verdicts: SpecimenVerdict[]; refusal: string | null }> {
  if (kind !== 'root_slice') {
    const leaves = findLeaves(lab, minSpecimen, kind === 'leaf');
    if (kind === 'leaf' || leaves.leaves.length > 0) {
      return { specimens: leaves.leaves, verdicts: leafVerdicts(lab, leaves.leaves), refusal: leaves.refusal };
    }
  }
  const specimenProb = await model.specimenProbability(small, lab);
  // Blue and navy are no root tissue (cloth, boards, a glove): never part of a slice, so a cloth in a corner or
  // under the slice neither becomes a specimen nor joins one. PPD's blue-black streaks are far less saturated.
  dropClothBlue(specimenProb, lab);
  const found = findSpecimens(specimenProb, small.width, small.height, minSpecimen, lab);
  if (found.length === 0) return { specimens: [], verdicts: [], refusal: null };
  const scene = checkScene(small, found, lab);
  const verdicts =
    kind === 'root_slice' ? scene.specimens.map((v) => ({ ...v, kind: 'root_slice' as const })) : scene.specimens;
  return { specimens: found, verdicts, refusal: scene.refusal };
}

/**
 * The specimens of a decoded working image as the first segmentation finds them with `model` (leaves first,
 * then slices), at working size, refusals aside, each with the kind the scene check gives it: lab-model
 * training reads each labelled specimen as scoring reads the specimens it finds.
 */
export async function findWorkingSpecimens(
  model: SegmentationModel,
  image: RgbImage,
  params: AnalysisParams,
): Promise<{ specimen: Specimen; kind: SpecimenKind }[]> {
  model.prepare?.(image);
  const halved = Math.max(image.width, image.height) > HALVE_ABOVE;
  const small = halved ? halve(image) : image;
  const specimenParams = scaledParams(params, image.width, image.height, image.width, image.height);
  const minSpecimen = halved ? specimenParams.min_size / 4 : specimenParams.min_size;
  const found = await findAndCheck(model, small, rgbToLab(small.data, small.width, small.height), minSpecimen, 'auto');
  return found.specimens.map((s, i) => ({
    specimen: halved ? upscaleSpecimen(s, image.width, image.height) : s,
    kind: found.verdicts[i]?.kind ?? 'root_slice',
  }));
}

/**
 * The whole engine for one image: decode -> first segmentation -> second segmentation -> PPD -> visualisations.
 * Runs inside a worker; parameters are already validated. Bad images come back as error results.
 */
export async function analyseImage(
  model: SegmentationModel,
  input: Uint8Array | string,
  params: AnalysisParams,
  requestedMode: AnalysisMode,
  options: AnalyseOptions = {},
): Promise<AnalysisResult> {
  const started = performance.now();
  // `proposal` is a full analysis that also returns its per-pixel classes (see the end)
  const mode = requestedMode === 'proposal' ? 'full' : requestedMode;
  const timings: Record<string, number> = {};
  let t = started;
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (now - t) / 1000;
    t = now;
  };

  const decoded = await decodeImage(input);
  lap('decode');
  if (!decoded.ok) return failedResult(decoded.code, decoded.message, started, timings);
  const { image, originalWidth, originalHeight } = decoded.decoded;
  model.prepare?.(image);

  // Specimens are large: find them on a half-size copy (a quarter of the pixel work) when the photo is big.
  const halved = Math.max(image.width, image.height) > HALVE_ABOVE;
  const small = halved ? halve(image) : image;
  const lesionParams = scaledParams(params, image.width, image.height, originalWidth, originalHeight);
  // specimens are found with the small-photo rule only: the working copy is what their size limits were set on
  const specimenParams = scaledParams(params, image.width, image.height, image.width, image.height);
  const smallLab = rgbToLab(small.data, small.width, small.height);
  const minSpecimen = halved ? specimenParams.min_size / 4 : specimenParams.min_size;
  const found = await findAndCheck(model, small, smallLab, minSpecimen, options.specimenKind ?? 'auto');
  const specimens = halved
    ? found.specimens.map((s) => upscaleSpecimen(s, image.width, image.height))
    : found.specimens;
  lap('first');
  // a lab model was trained on the lab's own photos: what it finds is theirs to score, whatever the rules say
  if (found.refusal && !(options.labModel && specimens.length > 0)) {
    // the overview still shows what was seen, so a person can tell why (drawn on the photo: its last use)
    const overview = await encodeWebp(
      drawOverview(
        image,
        specimens.map((s) => s.rect),
        specimens.map(() => null),
        true,
      ),
    );
    lap('render');
    const refused = failedResult(
      'not_a_specimen_photo',
      `Not a specimen photo: ${found.refusal}. ${WHAT_WORKS}`,
      started,
      timings,
    );
    return { ...refused, images: { ...refused.images, overview } };
  }
  if (specimens.length === 0) {
    return failedResult('no_specimen_found', NO_SPECIMEN_MESSAGE, started, timings);
  }
  const scene = { specimens: found.verdicts };
  // What is neither slice nor leaf (a hand, bark, a crumb) is dropped, unless it is the size of the slices
  // beside it: then it is most likely a slice discoloured through, kept and flagged for review.
  const sizes = specimens.map((s) => s.area).sort((a, b) => a - b);
  const medianArea = sizes[Math.floor(sizes.length / 2)]!;
  const keep = specimens.map(
    (s, i) => scene.specimens[i]!.kind !== null || s.area >= UNKNOWN_KIND_MIN_SHARE * medianArea,
  );
  const kept = specimens.filter((_, i) => keep[i]);
  const verdicts = scene.specimens.filter((_, i) => keep[i]);
  if (kept.length === 0) return failedResult('no_specimen_found', NO_SPECIMEN_MESSAGE, started, timings);
  const sx = originalWidth / image.width;
  const sy = originalHeight / image.height;
  const cuts = kept.map((s) => toOriginal(s.rect, sx, sy, originalWidth, originalHeight));
  const crops = kept.map((s) => cropRgb(image, s.rect));
  const keptSizes = kept.map((s) => s.area).sort((a, b) => a - b);
  const typicalArea = keptSizes[Math.floor(keptSizes.length / 2)]!;

  const sub: number[] = [];
  const lesions: Uint8Array[] = [];
  const surfaces: Uint8Array[] = [];
  const confidences: number[] = [];
  if (mode === 'full') {
    for (let i = 0; i < kept.length; i++) {
      const s = kept[i]!;
      const v = verdicts[i]!;
      const crop = crops[i]!;
      const prob = await lesionProbability(model, crop, s.mask, params.use_tta, v.kind ?? 'root_slice');
      const score = scoreCut(prob, s.mask, crop.width, crop.height, lesionParams);
      sub.push(round2(10 * score.share));
      lesions.push(score.lesion);
      surfaces.push(score.specimen);
      confidences.push(round2(specimenConfidence(score.certainty, v, s.area / typicalArea)));
    }
  }
  lap('second');

  const cut2 = await Promise.all(crops.map((c) => encodeWebp(c)));
  // the crops and the photo are encoded or cut from by now: the overlays and the overview are drawn on them
  const pred =
    mode === 'full'
      ? await Promise.all(
          crops.map((c, i) => encodeWebp(overlayLesions(c, surfaces[i]!, lesions[i]!, params.overlay_opacity, true))),
        )
      : [];
  const overview = await encodeWebp(
    drawOverview(
      image,
      kept.map((s) => s.rect),
      mode === 'full' ? sub : kept.map(() => null),
      true,
    ),
  );
  lap('render');
  const proposal =
    requestedMode === 'proposal'
      ? await encodeLabelPng(
          proposalLabels(
            image.width,
            image.height,
            kept.map((s, i) => ({ rect: s.rect, mask: s.mask, surface: surfaces[i]!, lesion: lesions[i]! })),
          ),
          image.width,
          image.height,
        )
      : undefined;

  const ppd = mode === 'full' ? round2(sub.reduce((a, b) => a + b, 0) / sub.length) : null;
  const specimenResults: SpecimenResult[] = cuts.map((box, i) => {
    const v = verdicts[i]!;
    const confidence = mode === 'full' ? confidences[i]! : null;
    return {
      index: i + 1,
      kind: v.kind ?? 'root_slice',
      box,
      ppd: mode === 'full' ? sub[i]! : null,
      confidence,
      needs_review:
        v.kind === null ||
        (confidence !== null && confidence < REVIEW_BELOW) ||
        // a neighbour cut by the frame is scored on its own, on what shows of it: a person should look
        (v.kind === 'root_slice' && cuts.length > 1 && v.frameShare > CUT_BY_FRAME),
    };
  });
  let weighted = 0;
  let areaSum = 0;
  kept.forEach((s, i) => {
    weighted += (confidences[i] ?? 0) * s.area;
    areaSum += s.area;
  });
  return {
    ppd_value: ppd,
    sub_ppd_values: sub,
    cuts,
    specimens: specimenResults,
    needs_review: specimenResults.some((s) => s.needs_review),
    prediction: ppd === null ? null : severityOf(ppd),
    confidence: mode === 'full' && areaSum > 0 ? round2(weighted / areaSum) : null,
    processing_time: Math.round(seconds(started) * 1000) / 1000,
    images: { cut2, pred, overview, ...(proposal ? { proposal } : {}) },
    error_code: null,
    error_message: null,
    timings,
  };
}
