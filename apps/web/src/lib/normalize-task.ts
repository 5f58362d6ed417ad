import { MODEL_TYPE, type TaskStatus } from '@cassavascope/contract';
import { listCount, listResults } from './api-client';
import { pickBoolean, pickNumber, pickString } from './normalize-fields';

/**
 * A task as the screens use it (spec section 3, "Task as normalised on load"). The normaliser accepts every
 * field alternative the spec lists, so the web app also reads the academy's original backend.
 */
export interface TaskParametersView {
  usePostProcessing: boolean;
  useTTA: boolean;
  confidenceThreshold: number | null;
  minArea: number | null;
  morphKernelSize: number | null;
  morphIterations: number | null;
  overlayOpacity: number | null;
}

export interface TaskStatisticsView {
  healthyCount: number;
  diseaseCount: number;
  /** 0-1 */
  averageConfidence: number;
  /** seconds */
  processingTime: number;
  totalProcessed: number;
}

export interface TaskView {
  id: number;
  name: string;
  /**
   * running, completed, failed or cancelled; anything else is kept and shown in a neutral style. A task without
   * a status is `unknown` (neutral: no cancel button, no polling), never taken for a running one.
   */
  status: TaskStatus | typeof UNKNOWN_TASK_STATUS | string;
  modelType: string;
  /** the label of the engine that scores the task (`engine_label`); null for tasks from before it was recorded */
  engineLabel: string | null;
  /** what the photos show (`specimen_kind`: auto, root_slice, leaf); auto when the server does not say */
  specimenKind: string;
  /** the lab model it scores with (`model_id`); null: the default engine */
  modelId: number | null;
  /** who started it (sign-in on): the user name, or `#id` for a deleted account; null when unknown */
  createdBy: string | null;
  imageCount: number;
  createdDate: string | null;
  completedDate: string | null;
  image_ids: number[];
  /** 0-100 */
  progress: number;
  /** images attempted so far (scored or failed): the number of result rows of the task */
  processedCount: number;
  failedCount: number;
  /** of the failed, how many the engine refused (`refused_count`: no specimen to score): outcomes, not failures */
  refusedCount: number;
  parameters: TaskParametersView;
  statistics: TaskStatisticsView | null;
  errorMessage: string | null;
}

/** The status of a task that came without one. */
export const UNKNOWN_TASK_STATUS = 'unknown';

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function normalizeParameters(task: Raw): TaskParametersView {
  // The API nests them under `parameters`; older payloads had them at the top level.
  const p: Raw = { ...task, ...(isObject(task.parameters) ? task.parameters : {}) };
  const method = pickString(p, 'method');
  return {
    usePostProcessing:
      pickBoolean(p, 'usePostProcessing', 'use_post_processing') ?? (method === null ? false : method === 'post'),
    useTTA: pickBoolean(p, 'useTTA', 'use_tta') ?? false,
    confidenceThreshold: pickNumber(p, 'confidenceThreshold', 'threshold'),
    minArea: pickNumber(p, 'minArea', 'min_size'),
    morphKernelSize: pickNumber(p, 'morphKernelSize', 'morph_kernel_size'),
    morphIterations: pickNumber(p, 'morphIterations', 'morph_iterations'),
    overlayOpacity: pickNumber(p, 'overlayOpacity', 'overlay_opacity'),
  };
}

function normalizeStatistics(raw: unknown): TaskStatisticsView | null {
  if (!isObject(raw)) return null;
  return {
    healthyCount: pickNumber(raw, 'healthyCount', 'healthy_count') ?? 0,
    diseaseCount: pickNumber(raw, 'diseaseCount', 'disease_count') ?? 0,
    averageConfidence: pickNumber(raw, 'averageConfidence', 'average_confidence') ?? 0,
    processingTime: pickNumber(raw, 'processingTime', 'processing_time') ?? 0,
    totalProcessed: pickNumber(raw, 'totalProcessed', 'total_processed') ?? 0,
  };
}

/** An image id: a number, or a numeric string from another backend ("12"). */
function toId(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function normalizeTask(input: unknown): TaskView {
  const raw: Raw = isObject(input) ? input : {};
  const imageIds = Array.isArray(raw.image_ids) ? raw.image_ids.map(toId).filter((v): v is number => v !== null) : [];
  const statistics = normalizeStatistics(raw.statistics);
  const progress = Math.min(100, Math.max(0, pickNumber(raw, 'progress') ?? 0));
  const imageCount = pickNumber(raw, 'imageCount', 'image_count') ?? imageIds.length;
  return {
    id: pickNumber(raw, 'id') ?? 0,
    name: pickString(raw, 'name') ?? '',
    status: pickString(raw, 'status') ?? UNKNOWN_TASK_STATUS,
    modelType: pickString(raw, 'modelType', 'model_type', 'algorithm') ?? MODEL_TYPE,
    engineLabel: pickString(raw, 'engine_label', 'engineLabel'),
    specimenKind: pickString(raw, 'specimen_kind', 'specimenKind') ?? 'auto',
    modelId: pickNumber(raw, 'model_id', 'modelId'),
    createdBy: creatorOf(raw.created_by),
    imageCount,
    createdDate: pickString(raw, 'createdDate', 'created_time', 'created_at'),
    completedDate: pickString(raw, 'completedDate', 'completed_time', 'updated_time'),
    image_ids: imageIds,
    progress,
    processedCount:
      pickNumber(raw, 'processed_count', 'processedCount') ??
      statistics?.totalProcessed ??
      Math.floor((progress / 100) * imageCount),
    failedCount: pickNumber(raw, 'failed_count', 'failedCount') ?? 0,
    refusedCount: pickNumber(raw, 'refused_count', 'refusedCount') ?? 0,
    parameters: normalizeParameters(raw),
    statistics,
    errorMessage: pickString(raw, 'error_message', 'errorMessage'),
  };
}

export interface TaskList {
  count: number;
  results: TaskView[];
  /** tasks per status over every task, whatever the filter (`status_counts`); null when the server sends none */
  statusCounts: Record<string, number> | null;
}

/** A task list response is an array or an object with a `results` array (spec section 7). */
export function normalizeTaskList(input: unknown): TaskList {
  const raw = (input as { status_counts?: unknown } | null)?.status_counts;
  const statusCounts =
    raw && typeof raw === 'object' && Object.values(raw).every((n) => typeof n === 'number')
      ? (raw as Record<string, number>)
      : null;
  return { count: listCount(input), results: listResults(input).map(normalizeTask), statusCounts };
}

/** `created_by` ({id, username?} or null) as a name to show. */
function creatorOf(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const { id, username } = value as { id?: unknown; username?: unknown };
  if (typeof username === 'string' && username) return username;
  return typeof id === 'number' ? `#${id}` : null;
}
