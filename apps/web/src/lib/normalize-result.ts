import {
  cutKey,
  parseVisKey,
  predKey,
  type SpecimenKind,
  type SpecimenSource,
  type VisKey,
} from '@cassavascope/contract';
import { listCount, listResults } from './api-client';
import { pickBoolean, pickNumber, pickString } from './normalize-fields';

/** One specimen of a result (api.md `specimens`), 1..N in reading order. */
export interface SpecimenView {
  index: number;
  kind: SpecimenKind;
  /** [x, y, w, h] in original pixels; null when the server did not say */
  box: [number, number, number, number] | null;
  /** the value in use; null when only cuts were made */
  ppd: number | null;
  enginePpd: number | null;
  /** 0-1, null when not given */
  confidence: number | null;
  needsReview: boolean;
  excluded: boolean;
  corrected: boolean;
  source: SpecimenSource;
  cutUrl: string | null;
  predUrl: string | null;
}

/** A prediction result as the Results screen uses it (spec section 3, "Prediction result"). */
export interface ResultView {
  id: number;
  imageId: number | null;
  imageName: string;
  /** resolved address of the original photo, or null */
  originalImageUrl: string | null;
  /** the original's small thumbnail (`thumbnail_url`, an addition of this server), or null */
  thumbnailUrl: string | null;
  ossKey: string | null;
  /** resolved address of the overview/overlay image, or null */
  overlayImageUrl: string | null;
  /** null when the image could not be scored */
  ppdValue: number | null;
  subPpdValues: number[];
  prediction: string | null;
  /** 0-1; 1 when the server gives no number (spec section 5) */
  confidence: number;
  taskId: number | null;
  /** cut2_i / pred_i of every specimen i (the seed's 1-3 and on past 3) */
  visImages: Partial<Record<VisKey, string>>;
  /** every specimen; from sub_ppd_values and vis_images when the server sends none (an older server) */
  specimens: SpecimenView[];
  /** any specimen needs review */
  needsReview: boolean;
  reviewed: boolean;
  /** the engine's own mean; the PPD value when the server does not say */
  enginePpdValue: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** seconds */
  processingTime: number | null;
  /** the lab model its task scored with (`model`, its name kept after the model is deleted); null: the default engine */
  model: { id: number; name: string } | null;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where the object-storage keys of the original backend live. Our server always sends usable addresses
 * (relative `/media/...` or absolute), so the base only matters for a bare key.
 */
export const OBJECT_STORAGE_BASE = '/media/';

/**
 * Spec section 5: an address starting with http is used as is; otherwise it is built from a storage object key
 * under the object-storage base. A server-relative address (`/media/...`) is already usable.
 */
export function resolveMediaUrl(value: string | null): string | null {
  if (value === null || value === '') return null;
  if (/^https?:\/\//i.test(value) || value.startsWith('/') || value.startsWith('data:') || value.startsWith('blob:'))
    return value;
  return OBJECT_STORAGE_BASE + value.replace(/^\/+/, '');
}

function numbers(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  return v.map((x) => (typeof x === 'number' ? x : Number(x))).filter((x) => Number.isFinite(x));
}

const finite = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

function box(v: unknown): SpecimenView['box'] {
  if (Array.isArray(v) && v.length === 4) {
    const n = v.map(finite);
    if (n.every((x) => x !== null)) return n as [number, number, number, number];
  }
  if (isObject(v)) {
    const n = [v.x, v.y, v.w, v.h].map(finite);
    if (n.every((x) => x !== null)) return n as [number, number, number, number];
  }
  return null;
}

function normalizeSpecimen(raw: Raw, position: number, vis: Partial<Record<VisKey, string>>): SpecimenView {
  const index = pickNumber(raw, 'index') ?? position + 1;
  const ppd = finite(raw.ppd);
  const url = (...keys: string[]) => resolveMediaUrl(pickString(raw, ...keys));
  return {
    index,
    kind: raw.kind === 'leaf' ? 'leaf' : 'root_slice',
    box: box(raw.box),
    ppd,
    enginePpd: finite(raw.engine_ppd ?? raw.enginePpd) ?? ppd,
    confidence: finite(raw.confidence),
    needsReview: pickBoolean(raw, 'needs_review', 'needsReview') ?? false,
    excluded: pickBoolean(raw, 'excluded') ?? false,
    corrected: pickBoolean(raw, 'corrected') ?? false,
    source: raw.source === 'reviewer' ? 'reviewer' : 'engine',
    cutUrl: url('cut_url', 'cutUrl') ?? vis[cutKey(index)] ?? null,
    predUrl: url('pred_url', 'predUrl') ?? vis[predKey(index)] ?? null,
  };
}

/** An older server sends no specimens: one per sub-PPD value or stored cut, with what is known. */
function specimensFromVis(sub: number[], vis: Partial<Record<VisKey, string>>): SpecimenView[] {
  let n = sub.length;
  for (const key of Object.keys(vis)) n = Math.max(n, parseVisKey(key)?.index ?? 0);
  return Array.from({ length: n }, (_, i) => normalizeSpecimen({ ppd: sub[i] ?? null }, i, vis));
}

export function normalizeResult(input: unknown): ResultView {
  const raw: Raw = isObject(input) ? input : {};
  const ossKey = pickString(raw, 'oss_key', 'ossKey');
  const vis: Partial<Record<VisKey, string>> = {};
  const rawVis = isObject(raw.vis_images) ? raw.vis_images : isObject(raw.visImages) ? raw.visImages : {};
  for (const [key, value] of Object.entries(rawVis)) {
    if (parseVisKey(key) === null || typeof value !== 'string') continue;
    const url = resolveMediaUrl(value);
    if (url !== null) vis[key as VisKey] = url;
  }
  const subPpdValues = numbers(raw.sub_ppd_values ?? raw.subPpdValues);
  const rawSpecimens = Array.isArray(raw.specimens) ? raw.specimens.filter(isObject) : null;
  const specimens = rawSpecimens
    ? rawSpecimens.map((s, i) => normalizeSpecimen(s, i, vis))
    : specimensFromVis(subPpdValues, vis);
  const ppdValue = pickNumber(raw, 'ppd_value', 'ppdValue');
  const needsReview = pickBoolean(raw, 'needs_review', 'needsReview');
  return {
    id: pickNumber(raw, 'id') ?? 0,
    imageId: pickNumber(raw, 'image_id', 'imageId'),
    imageName: pickString(raw, 'imageName', 'image_name', 'name') ?? '',
    originalImageUrl: resolveMediaUrl(pickString(raw, 'original_image_url', 'originalImageUrl', 'image_url')),
    thumbnailUrl: resolveMediaUrl(pickString(raw, 'thumbnail_url', 'thumbnailUrl')),
    ossKey,
    overlayImageUrl: resolveMediaUrl(pickString(raw, 'overlayImageUrl', 'result_image_url') ?? ossKey),
    ppdValue,
    subPpdValues,
    prediction: pickString(raw, 'prediction'),
    confidence: pickNumber(raw, 'confidence') ?? 1,
    taskId: pickNumber(raw, 'taskId', 'task_id', 'processing_task_id', 'processingTaskId'),
    visImages: vis,
    specimens,
    needsReview: needsReview ?? specimens.some((s) => s.needsReview),
    reviewed: pickBoolean(raw, 'reviewed') ?? false,
    enginePpdValue: pickNumber(raw, 'engine_ppd_value', 'enginePpdValue') ?? ppdValue,
    errorCode: pickString(raw, 'error_code', 'errorCode'),
    errorMessage: pickString(raw, 'error_message', 'errorMessage'),
    processingTime: pickNumber(raw, 'processingTime', 'processing_time'),
    model: modelOf(raw.model),
  };
}

/** A result's `model` ({id, name}) or null. */
function modelOf(value: unknown): { id: number; name: string } | null {
  if (!isObject(value)) return null;
  const id = pickNumber(value, 'id');
  const name = pickString(value, 'name');
  return id === null ? null : { id, name: name ?? `#${id}` };
}

/** A results response is an array or an object with a `results` array (spec section 7). */
export function normalizeResultList(input: unknown): { count: number; results: ResultView[] } {
  return { count: listCount(input), results: listResults(input).map(normalizeResult) };
}
