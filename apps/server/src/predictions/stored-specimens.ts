import {
  cutKey,
  predKey,
  type Specimen,
  type SpecimenKind,
  type SpecimenSource,
  type VisKey,
} from '@cassavascope/contract';
import type { AnalysisResult } from '@cassavascope/ppd';
import type { BlobStorage } from '../storage/blob-storage.js';

/**
 * One specimen as the `results.specimens` JSON column holds it (migration 0006): the API's Specimen with
 * storage keys where the API has URLs. `engine_ppd` is the engine's value; `ppd` the one in use.
 */
export interface StoredSpecimen {
  index: number;
  kind: SpecimenKind;
  box: [number, number, number, number] | null;
  ppd: number | null;
  engine_ppd: number | null;
  confidence: number | null;
  needs_review: boolean;
  excluded: boolean;
  corrected: boolean;
  source: SpecimenSource;
  cut_key: string | null;
  pred_key: string | null;
}

/**
 * The engine's specimens with the keys their images were stored under. Tolerant of an engine that reports
 * fewer specimen objects than images or values: every cut, prediction image and value gets its specimen.
 */
export function specimensFromAnalysis(a: AnalysisResult, visKeys: Record<string, string>): StoredSpecimen[] {
  const reported = Array.isArray(a.specimens) ? a.specimens : [];
  const n = Math.max(reported.length, a.images.cut2.length, a.images.pred.length, a.sub_ppd_values.length);
  const out: StoredSpecimen[] = [];
  for (let i = 0; i < n; i++) {
    const s = reported[i];
    const box = s?.box ?? a.cuts[i];
    const ppd = s ? s.ppd : (a.sub_ppd_values[i] ?? null);
    out.push({
      index: i + 1,
      kind: s?.kind === 'leaf' ? 'leaf' : 'root_slice',
      box: box ? [box.x, box.y, box.w, box.h] : null,
      ppd,
      engine_ppd: ppd,
      confidence: s?.confidence ?? null,
      needs_review: s?.needs_review ?? false,
      excluded: false,
      corrected: false,
      source: 'engine',
      cut_key: visKeys[cutKey(i + 1)] ?? null,
      pred_key: visKeys[predKey(i + 1)] ?? null,
    });
  }
  return out;
}

export function parseStoredSpecimens(json: string | null | undefined): StoredSpecimen[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as StoredSpecimen[]) : [];
  } catch {
    return [];
  }
}

/** A stored specimen as the API's Specimen: keys become URLs through the storage. */
export function toApiSpecimen(s: StoredSpecimen, storage: BlobStorage): Specimen {
  return {
    index: s.index,
    kind: s.kind,
    box: s.box,
    ppd: s.ppd,
    engine_ppd: s.engine_ppd,
    confidence: s.confidence,
    needs_review: s.needs_review,
    excluded: s.excluded,
    corrected: s.corrected,
    source: s.source,
    cut_url: s.cut_key ? storage.url(s.cut_key) : null,
    pred_url: s.pred_key ? storage.url(s.pred_key) : null,
  };
}

/** vis_images keys of the stored specimens (a specimen's own images, also for one added after scoring). */
export function specimenVisKeys(specimens: StoredSpecimen[]): [VisKey, string][] {
  const out: [VisKey, string][] = [];
  for (const s of specimens) {
    if (s.cut_key) out.push([cutKey(s.index), s.cut_key]);
    if (s.pred_key) out.push([predKey(s.index), s.pred_key]);
  }
  return out;
}
