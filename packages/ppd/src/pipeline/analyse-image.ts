import { severityOf } from '@cassavascope/contract';
import { cropRgb, halve, type Rect } from '../imaging/raster.js';
import type { SegmentationModel } from '../models/segmentation-model.js';
import { drawOverview, encodeWebp, overlayLesions } from '../render/visualise.js';
import type { AnalysisMode, AnalysisParams, AnalysisResult, Box, SpecimenResult } from '../types.js';
import { decodeImage } from './decode-image.js';
import { findSpecimens, upscaleSpecimen } from './first-segmentation.js';
import { lesionProbability, scoreCut } from './second-segmentation.js';

/** Working images longer than this run the first segmentation at half size. */
const HALVE_ABOVE = 600;

const round2 = (v: number) => Math.round(v * 100) / 100;
const seconds = (fromMs: number) => (performance.now() - fromMs) / 1000;

export function failedResult(code: string, message: string, startedMs: number, timings: Record<string, number> = {}): AnalysisResult {
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
 * The whole engine for one image: decode -> first segmentation -> second segmentation -> PPD -> visualisations.
 * Runs inside a worker; parameters are already validated. Bad images come back as error results.
 */
export async function analyseImage(
  model: SegmentationModel,
  input: Uint8Array | string,
  params: AnalysisParams,
  mode: AnalysisMode,
): Promise<AnalysisResult> {
  const started = performance.now();
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

  // Specimens are large: find them on a half-size copy (a quarter of the pixel work) when the photo is big.
  const halved = Math.max(image.width, image.height) > HALVE_ABOVE;
  const small = halved ? halve(image) : image;
  const specimenProb = await model.specimenProbability(small);
  const found = findSpecimens(specimenProb, small.width, small.height, halved ? params.min_size / 4 : params.min_size);
  const specimens = halved ? found.map((s) => upscaleSpecimen(s, image.width, image.height)) : found;
  lap('first');
  if (specimens.length === 0) {
    return failedResult('no_specimen_found', 'no specimen stands out from the background', started, timings);
  }
  const sx = originalWidth / image.width;
  const sy = originalHeight / image.height;
  const cuts = specimens.map((s) => toOriginal(s.rect, sx, sy, originalWidth, originalHeight));
  const crops = specimens.map((s) => cropRgb(image, s.rect));

  const sub: number[] = [];
  const lesions: Uint8Array[] = [];
  let certaintySum = 0;
  let areaSum = 0;
  if (mode === 'full') {
    for (let i = 0; i < specimens.length; i++) {
      const s = specimens[i]!;
      const crop = crops[i]!;
      const prob = await lesionProbability(model, crop, s.mask, params.use_tta);
      const score = scoreCut(prob, s.mask, crop.width, crop.height, params);
      sub.push(round2(10 * score.share));
      lesions.push(score.lesion);
      certaintySum += score.certainty * s.area;
      areaSum += s.area;
    }
  }
  lap('second');

  const cut2 = await Promise.all(crops.map((c) => encodeWebp(c)));
  const pred =
    mode === 'full'
      ? await Promise.all(crops.map((c, i) => encodeWebp(overlayLesions(c, specimens[i]!.mask, lesions[i]!, params.overlay_opacity))))
      : [];
  const overview = await encodeWebp(
    drawOverview(
      image,
      specimens.map((s) => s.rect),
      mode === 'full' ? sub : specimens.map(() => null),
    ),
  );
  lap('render');

  const ppd = mode === 'full' ? round2(sub.reduce((a, b) => a + b, 0) / sub.length) : null;
  const specimenResults: SpecimenResult[] = cuts.map((box, i) => ({
    index: i + 1,
    kind: 'root_slice',
    box,
    ppd: mode === 'full' ? sub[i]! : null,
    confidence: null,
    needs_review: false,
  }));
  return {
    ppd_value: ppd,
    sub_ppd_values: sub,
    cuts,
    specimens: specimenResults,
    needs_review: specimenResults.some((s) => s.needs_review),
    prediction: ppd === null ? null : severityOf(ppd),
    confidence: mode === 'full' && areaSum > 0 ? round2(certaintySum / areaSum) : null,
    processing_time: Math.round(seconds(started) * 1000) / 1000,
    images: { cut2, pred, overview },
    error_code: null,
    error_message: null,
    timings,
  };
}
