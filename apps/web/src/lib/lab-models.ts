import { useQuery } from '@tanstack/react-query';
import { modelListSchema } from '@cassavascope/contract';
import { api, ApiError, listResults } from './api-client';
import { asRecord, pickNumber, pickString } from './normalize-fields';

/**
 * Lab models (api.md "Labels and lab models") as every screen reads them: the Models screen lists and manages
 * them, Prediction and Tasks offer the ready ones. Shared here because features do not import each other.
 */
export type LabModelStatus = 'training' | 'ready' | 'failed' | 'cancelled' | string;

export interface LabelledPixels {
  background: number;
  healthy: number;
  lesion: number;
  excluded: number;
}

export interface LabModelMetrics {
  /** 0-1 */
  pixelAccuracy: number | null;
  /** 0-1 */
  lesionIou: number | null;
  /** mean absolute PPD error of the lab model on photos it did not train on */
  ppdMae: number | null;
  /** the default engine's on the same specimens */
  baselinePpdMae: number | null;
}

/** One held-out photo: the PPD of its labels, the lab model's and the default engine's, with both overlays. */
export interface HeldoutView {
  imageId: number | null;
  labelsPpd: number | null;
  modelPpd: number | null;
  baselinePpd: number | null;
  modelOverlayUrl: string | null;
  baselineOverlayUrl: string | null;
}

export interface LabModelView {
  id: number;
  name: string;
  status: LabModelStatus;
  /** 0-100 */
  progress: number;
  createdTime: string | null;
  createdBy: string | null;
  imageCount: number;
  labelledPixels: LabelledPixels;
  metrics: LabModelMetrics | null;
  errorMessage: string | null;
  heldout: HeldoutView[];
  /** bytes of the portable model file; null until ready or when the server does not say */
  fileSize: number | null;
}

const creatorOf = (value: unknown): string | null => {
  if (typeof value === 'string' && value) return value;
  const raw = asRecord(value);
  return pickString(raw, 'username') ?? (typeof raw.id === 'number' ? `#${raw.id}` : null);
};

function normalizeMetrics(value: unknown): LabModelMetrics | null {
  if (!value || typeof value !== 'object') return null;
  const raw = asRecord(value);
  return {
    pixelAccuracy: pickNumber(raw, 'pixel_accuracy'),
    lesionIou: pickNumber(raw, 'lesion_iou'),
    ppdMae: pickNumber(raw, 'ppd_mae'),
    baselinePpdMae: pickNumber(raw, 'baseline_ppd_mae'),
  };
}

function normalizeHeldout(value: unknown): HeldoutView {
  const raw = asRecord(value);
  return {
    imageId: pickNumber(raw, 'image_id'),
    labelsPpd: pickNumber(raw, 'labels_ppd'),
    modelPpd: pickNumber(raw, 'model_ppd'),
    baselinePpd: pickNumber(raw, 'baseline_ppd'),
    modelOverlayUrl: pickString(raw, 'model_overlay_url'),
    baselineOverlayUrl: pickString(raw, 'baseline_overlay_url'),
  };
}

export function normalizeLabModel(value: unknown): LabModelView {
  const raw = asRecord(value);
  const pixels = asRecord(raw.labelled_pixels);
  return {
    id: pickNumber(raw, 'id') ?? 0,
    name: pickString(raw, 'name') ?? '',
    status: pickString(raw, 'status') ?? 'failed',
    progress: Math.min(100, Math.max(0, pickNumber(raw, 'progress') ?? 0)),
    createdTime: pickString(raw, 'created_time'),
    createdBy: creatorOf(raw.created_by),
    imageCount: pickNumber(raw, 'image_count') ?? 0,
    labelledPixels: {
      background: pickNumber(pixels, 'background') ?? 0,
      healthy: pickNumber(pixels, 'healthy') ?? 0,
      lesion: pickNumber(pixels, 'lesion') ?? 0,
      excluded: pickNumber(pixels, 'excluded') ?? 0,
    },
    metrics: normalizeMetrics(raw.metrics),
    errorMessage: pickString(raw, 'error_message'),
    heldout: Array.isArray(raw.heldout) ? raw.heldout.map(normalizeHeldout) : [],
    fileSize: pickNumber(raw, 'file_size'),
  };
}

export const LAB_MODELS_KEY = ['lab-models'] as const;

/** While a model trains, the list is asked again this often (progress moves live). */
export const LAB_MODEL_POLL_MS = 1_500;

export async function getLabModels(signal?: AbortSignal): Promise<LabModelView[]> {
  try {
    return listResults(await api.get('/models/', { page_size: 200 }, signal, modelListSchema)).map(normalizeLabModel);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

/**
 * Every lab model, newest first; polled while one trains. A server without lab models (404) reads as none, so
 * the screens that only offer them keep working.
 */
export function useLabModels() {
  return useQuery({
    queryKey: LAB_MODELS_KEY,
    queryFn: ({ signal }) => getLabModels(signal),
    refetchInterval: (query) =>
      (query.state.data ?? []).some((m) => m.status === 'training') ? LAB_MODEL_POLL_MS : false,
  });
}

/** The models a task can score with. */
export const readyLabModels = (models: LabModelView[] | undefined) =>
  (models ?? []).filter((m) => m.status === 'ready');

/** What the photos show (api.md `specimen_kind`): the engine guesses with `auto`. */
export const SPECIMEN_KINDS = ['auto', 'root_slice', 'leaf'] as const;
export type SpecimenKindChoice = (typeof SPECIMEN_KINDS)[number];

export const parseSpecimenKind = (value: unknown): SpecimenKindChoice =>
  (SPECIMEN_KINDS as readonly unknown[]).includes(value) ? (value as SpecimenKindChoice) : 'auto';
