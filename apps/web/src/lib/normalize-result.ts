import { VIS_KEYS, type VisKey } from '@cassavascope/contract';
import { listCount, listResults } from './api-client';
import { pickNumber, pickString } from './normalize-fields';

/** A prediction result as the Results screen uses it (spec section 3, "Prediction result"). */
export interface ResultView {
  id: number;
  imageId: number | null;
  imageName: string;
  /** resolved address of the original photo, or null */
  originalImageUrl: string | null;
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
  visImages: Partial<Record<VisKey, string>>;
  errorCode: string | null;
  errorMessage: string | null;
  /** seconds */
  processingTime: number | null;
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
  if (/^https?:\/\//i.test(value) || value.startsWith('/') || value.startsWith('data:') || value.startsWith('blob:')) return value;
  return OBJECT_STORAGE_BASE + value.replace(/^\/+/, '');
}

function numbers(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  return v.map((x) => (typeof x === 'number' ? x : Number(x))).filter((x) => Number.isFinite(x));
}

export function normalizeResult(input: unknown): ResultView {
  const raw: Raw = isObject(input) ? input : {};
  const ossKey = pickString(raw, 'oss_key', 'ossKey');
  const vis: Partial<Record<VisKey, string>> = {};
  const rawVis = isObject(raw.vis_images) ? raw.vis_images : isObject(raw.visImages) ? raw.visImages : {};
  for (const key of VIS_KEYS) {
    const url = typeof rawVis[key] === 'string' ? resolveMediaUrl(rawVis[key]) : null;
    if (url !== null) vis[key] = url;
  }
  return {
    id: pickNumber(raw, 'id') ?? 0,
    imageId: pickNumber(raw, 'image_id', 'imageId'),
    imageName: pickString(raw, 'imageName', 'image_name', 'name') ?? '',
    originalImageUrl: resolveMediaUrl(pickString(raw, 'original_image_url', 'originalImageUrl', 'image_url')),
    ossKey,
    overlayImageUrl: resolveMediaUrl(pickString(raw, 'overlayImageUrl', 'result_image_url') ?? ossKey),
    ppdValue: pickNumber(raw, 'ppd_value', 'ppdValue'),
    subPpdValues: numbers(raw.sub_ppd_values ?? raw.subPpdValues),
    prediction: pickString(raw, 'prediction'),
    confidence: pickNumber(raw, 'confidence') ?? 1,
    taskId: pickNumber(raw, 'taskId', 'task_id', 'processing_task_id', 'processingTaskId'),
    visImages: vis,
    errorCode: pickString(raw, 'error_code', 'errorCode'),
    errorMessage: pickString(raw, 'error_message', 'errorMessage'),
    processingTime: pickNumber(raw, 'processingTime', 'processing_time'),
  };
}

/** A results response is an array or an object with a `results` array (spec section 7). */
export function normalizeResultList(input: unknown): { count: number; results: ResultView[] } {
  return { count: listCount(input), results: listResults(input).map(normalizeResult) };
}
