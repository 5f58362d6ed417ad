import type { PredictionParameters, SpecimenKind } from '@cassavascope/contract';
import type { AnalyseOptions, Engine } from '@cassavascope/ppd';
import sharp from 'sharp';
import { EngineUnavailableError } from '../engine/app-engine.js';
import { ApiError } from '../http/errors.js';
import { analysisParameters } from '../tasks/task-parameters.js';

/** What the engine found inside a box a reviewer drew. */
export interface BoxScore {
  ppd: number;
  confidence: number | null;
  kind: SpecimenKind;
  cut: Buffer;
  pred: Buffer;
}

/** The box's pixels of the original (after EXIF orientation, as boxes are given), as PNG. */
export async function cropBox(original: Buffer, box: [number, number, number, number]): Promise<Buffer> {
  const [left, top, width, height] = box;
  return sharp(original, { failOn: 'none' }).rotate().extract({ left, top, width, height }).png().toBuffer();
}

/** The crop as a small WebP: the cut image of a specimen a reviewer scored. */
export async function cutImage(crop: Buffer): Promise<Buffer> {
  return sharp(crop)
    .resize({ width: 512, height: 512, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 85 })
    .toBuffer();
}

/**
 * Scores what is inside a box with the task's parameters (and its specimen kind and lab model, `options`): the engine analyses the crop as a photo, and the
 * largest specimen it finds there is the one the reviewer meant. Nothing found (or the crop refused): 422
 * `box_not_scored` with the engine's reason, so the reviewer can give a score instead.
 */
export async function scoreBox(
  engine: Engine,
  crop: Buffer,
  params: PredictionParameters,
  options: AnalyseOptions = {},
): Promise<BoxScore> {
  let a;
  try {
    a = await engine.analyse(crop, analysisParameters(params), 'full', options);
  } catch (err) {
    if (err instanceof EngineUnavailableError) throw new ApiError(503, 'engine_unavailable', err.message);
    throw err;
  }
  const found = a.error_code === null ? a.specimens.map((s, i) => ({ s, i })).filter(({ s }) => s.ppd !== null) : [];
  if (found.length === 0) {
    throw new ApiError(
      422,
      'box_not_scored',
      `The engine found no specimen to score inside the box${a.error_message ? `: ${a.error_message}` : ''}. Draw the box round one specimen, or give its PPD.`,
      {
        engine_error_code: a.error_code,
        fields: { box: 'no specimen found inside the box' },
      },
    );
  }
  const best = found.reduce((m, c) => (c.s.box.w * c.s.box.h > m.s.box.w * m.s.box.h ? c : m));
  return {
    ppd: best.s.ppd as number,
    confidence: best.s.confidence,
    kind: best.s.kind,
    cut: a.images.cut2[best.i] ?? (await cutImage(crop)),
    pred: a.images.pred[best.i] ?? (await cutImage(crop)),
  };
}
