import { severityOf } from '@cassavascope/contract';
import type { AnalysisResult, Box } from '../types.js';
import type { LabelledPhoto } from './labelled-folder.js';

/** Intersection over union of two boxes. */
export function boxIoU(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const i = w * h;
  return i / (a.w * a.h + b.w * b.h - i);
}

/** A found box must overlap its labelled specimen this much to count as that specimen at all ... */
export const MATCH_IOU = 0.5;
/** ... and this much to count as found whole (not a wedge, a rim fragment or two slices as one). */
export const WHOLE_IOU = 0.8;
/** A specimen reading further than this from the person's is wrong (for the confidence check). */
export const WRONG_PPD = 1;

export interface SpecimenOutcome {
  /** the engine's specimen index, or null for a labelled specimen the engine did not find */
  index: number | null;
  truthPpd: number | null;
  ppd: number | null;
  iou: number | null;
  confidence: number | null;
  /** for the confidence check: found whole with a reading within WRONG_PPD (or no reading to compare) */
  right: boolean;
  /** the photo's reading (`ppd_value`) against a by-eye score of the whole photo, not one specimen's */
  wholePhoto?: true;
}

export interface PhotoOutcome {
  name: string;
  expect: LabelledPhoto['expect'];
  error_code: string | null;
  error_message: string | null;
  expected: number;
  found: number;
  /** the kind the engine gave each specimen it found, in its order */
  kinds: AnalysisResult['specimens'][number]['kind'][];
  /** labelled specimens matched by a found one (IoU >= MATCH_IOU), and of those found whole */
  matched: number;
  whole: number;
  extra: number;
  specimens: SpecimenOutcome[];
  /** refusal expected and given, or scoring expected and given */
  ok: boolean;
}

/** Pairs found specimens with labelled ones: greedy by IoU, one to one. */
export function comparePhoto(photo: LabelledPhoto, r: AnalysisResult): PhotoOutcome {
  const found = r.specimens;
  const base = {
    name: photo.name,
    expect: photo.expect,
    error_code: r.error_code,
    error_message: r.error_message,
    expected: photo.specimens.length,
    found: found.length,
    kinds: found.map((s) => s.kind),
  };
  if (photo.expect !== 'score') {
    // everything found on a photo to refuse (or with no labels) is listed; on a refusal it is wrong
    const specimens = found.map((s) => ({
      index: s.index,
      truthPpd: null,
      ppd: s.ppd,
      iou: null,
      confidence: s.confidence,
      right: photo.expect === 'unknown',
    }));
    const refused = r.error_code !== null;
    return {
      ...base,
      matched: 0,
      whole: 0,
      extra: photo.expect === 'refuse' ? found.length : 0,
      specimens,
      ok: photo.expect === 'refuse' ? refused : true,
    };
  }
  if (photo.wholePhoto) return compareWholePhoto(photo, r, base);
  const boxed = photo.specimens.every((s) => s.box);
  const outcomes: SpecimenOutcome[] = [];
  const used = new Set<number>();
  let matched = 0;
  let whole = 0;
  if (boxed) {
    const pairs: { t: number; f: number; iou: number }[] = [];
    photo.specimens.forEach((t, ti) =>
      found.forEach((f, fi) => pairs.push({ t: ti, f: fi, iou: boxIoU(t.box!, f.box) })),
    );
    pairs.sort((p, q) => q.iou - p.iou);
    const truthOf = new Map<number, { f: number; iou: number }>();
    for (const p of pairs) {
      if (p.iou < MATCH_IOU || truthOf.has(p.t) || used.has(p.f)) continue;
      truthOf.set(p.t, { f: p.f, iou: p.iou });
      used.add(p.f);
    }
    photo.specimens.forEach((t, ti) => {
      const m = truthOf.get(ti);
      if (!m) {
        outcomes.push({ index: null, truthPpd: t.ppd, ppd: null, iou: null, confidence: null, right: false });
        return;
      }
      const s = found[m.f]!;
      matched++;
      if (m.iou >= WHOLE_IOU) whole++;
      const close = t.ppd === null || s.ppd === null || Math.abs(s.ppd - t.ppd) <= WRONG_PPD;
      outcomes.push({
        index: s.index,
        truthPpd: t.ppd,
        ppd: s.ppd,
        iou: m.iou,
        confidence: s.confidence,
        right: m.iou >= WHOLE_IOU && close,
      });
    });
  } else {
    // no boxes: the first specimens stand for the labelled ones, in order
    photo.specimens.forEach((t, ti) => {
      const s = found[ti];
      if (!s) {
        outcomes.push({ index: null, truthPpd: t.ppd, ppd: null, iou: null, confidence: null, right: false });
        return;
      }
      used.add(ti);
      matched++;
      whole++;
      const close = t.ppd === null || s.ppd === null || Math.abs(s.ppd - t.ppd) <= WRONG_PPD;
      outcomes.push({ index: s.index, truthPpd: t.ppd, ppd: s.ppd, iou: null, confidence: s.confidence, right: close });
    });
  }
  found.forEach((s, fi) => {
    if (!used.has(fi))
      outcomes.push({ index: s.index, truthPpd: null, ppd: s.ppd, iou: null, confidence: s.confidence, right: false });
  });
  return { ...base, matched, whole, extra: found.length - used.size, specimens: outcomes, ok: r.error_code === null };
}

/** A photo judged as a whole: found when scored at all, its `ppd_value` against the one truth value. */
function compareWholePhoto(
  photo: LabelledPhoto,
  r: AnalysisResult,
  base: Omit<PhotoOutcome, 'matched' | 'whole' | 'extra' | 'specimens' | 'ok'>,
): PhotoOutcome {
  const truthPpd = photo.specimens[0]?.ppd ?? null;
  const scored = r.error_code === null && r.ppd_value !== null;
  const ppd = scored ? r.ppd_value : null;
  const close = truthPpd === null || ppd === null || Math.abs(ppd - truthPpd) <= WRONG_PPD;
  const specimen: SpecimenOutcome = {
    index: scored ? 1 : null,
    truthPpd,
    ppd,
    iou: null,
    confidence: scored ? r.confidence : null,
    right: scored && close,
    wholePhoto: true,
  };
  return { ...base, matched: scored ? 1 : 0, whole: scored ? 1 : 0, extra: 0, specimens: [specimen], ok: scored };
}

export interface Summary {
  photos: number;
  expectedSpecimens: number;
  matched: number;
  /** matched / expectedSpecimens, null when none was expected */
  foundShare: number | null;
  whole: number;
  extra: number;
  refusalsExpected: number;
  refusalsGiven: number;
  /** photos that should have been scored but were refused */
  wrongRefusals: number;
  scoredSlices: number;
  mae: number | null;
  bias: number | null;
  r: number | null;
  bandAgreement: number | null;
  /** how well specimen confidence separates right readings from wrong ones (0.5 = not at all) */
  confidenceAuc: number | null;
}

export function summarise(outcomes: PhotoOutcome[]): Summary {
  const pairs = outcomes
    .flatMap((o) => o.specimens)
    .filter((s) => s.truthPpd !== null && s.ppd !== null) as (SpecimenOutcome & { truthPpd: number; ppd: number })[];
  const n = pairs.length;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  let r: number | null = null;
  if (n >= 3) {
    const mx = mean(pairs.map((p) => p.truthPpd));
    const my = mean(pairs.map((p) => p.ppd));
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (const p of pairs) {
      sxy += (p.truthPpd - mx) * (p.ppd - my);
      sxx += (p.truthPpd - mx) ** 2;
      syy += (p.ppd - my) ** 2;
    }
    r = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
  }
  const scored = outcomes.flatMap((o) => o.specimens).filter((s) => s.confidence !== null);
  const expectedSpecimens = outcomes.reduce((a, o) => a + (o.expect === 'score' ? o.expected : 0), 0);
  const matched = outcomes.reduce((a, o) => a + o.matched, 0);
  return {
    photos: outcomes.length,
    expectedSpecimens,
    matched,
    foundShare: expectedSpecimens ? matched / expectedSpecimens : null,
    whole: outcomes.reduce((a, o) => a + o.whole, 0),
    extra: outcomes.reduce((a, o) => a + o.extra, 0),
    refusalsExpected: outcomes.filter((o) => o.expect === 'refuse').length,
    refusalsGiven: outcomes.filter((o) => o.expect === 'refuse' && o.error_code !== null).length,
    wrongRefusals: outcomes.filter((o) => o.expect === 'score' && o.error_code !== null).length,
    scoredSlices: n,
    mae: n ? mean(pairs.map((p) => Math.abs(p.ppd - p.truthPpd))) : null,
    bias: n ? mean(pairs.map((p) => p.ppd - p.truthPpd)) : null,
    r,
    bandAgreement: n ? pairs.filter((p) => severityOf(p.ppd) === severityOf(p.truthPpd)).length / n : null,
    confidenceAuc: auc(
      scored.filter((s) => s.right).map((s) => s.confidence!),
      scored.filter((s) => !s.right).map((s) => s.confidence!),
    ),
  };
}

/** Area under the ROC curve: the chance that a right reading is more confident than a wrong one (ties half). */
export function auc(right: number[], wrong: number[]): number | null {
  if (right.length === 0 || wrong.length === 0) return null;
  let wins = 0;
  for (const a of right) for (const b of wrong) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (right.length * wrong.length);
}
