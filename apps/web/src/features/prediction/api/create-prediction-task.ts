import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MODEL_TYPE, SINGLE_MODEL_TYPE, SPLIT_COUNT, taskSchema } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import type { SpecimenKindChoice } from '../../../lib/lab-models';
import { normalizeTask, type TaskView } from '../../../lib/normalize-task';

/** The prediction parameters of spec section 3, as the form holds them. */
export interface PredictionParameterValues {
  confidenceThreshold: number;
  usePostProcessing: boolean;
  useTTA: boolean;
  minArea: number;
  morphKernelSize: number;
  morphIterations: number;
  overlayOpacity: number;
}

export interface PredictionTaskInput {
  name: string;
  parameters: PredictionParameterValues;
  imageIds: number[];
  folderIds: number[];
  /** what the photos show (api.md `specimen_kind`); absent or `auto`: the engine decides */
  specimenKind?: SpecimenKindChoice;
  /** a ready lab model's id; absent or null: the default engine */
  modelId?: number | null;
}

/**
 * The creation payload of spec section 7: name, type, algorithm, threshold, min_size, method, split_count,
 * morph_kernel_size, morph_iterations, the remaining parameters (use_tta, overlay_opacity), image_ids or
 * folder_ids, single_model_type; specimen_kind and model_id (api.md) when not the defaults. Undefined and null fields are dropped (so are empty id lists).
 */
export function buildPredictionPayload(input: PredictionTaskInput): Record<string, unknown> {
  const p = input.parameters;
  const payload: Record<string, unknown> = {
    name: input.name.trim(),
    type: 'prediction',
    algorithm: MODEL_TYPE,
    threshold: p.confidenceThreshold,
    min_size: p.minArea,
    // The API defaults to 'post': switching post-processing off has to be said explicitly.
    method: p.usePostProcessing ? 'post' : 'none',
    split_count: SPLIT_COUNT,
    morph_kernel_size: p.morphKernelSize,
    morph_iterations: p.morphIterations,
    use_tta: p.useTTA,
    overlay_opacity: p.overlayOpacity,
    image_ids: input.imageIds.length > 0 ? input.imageIds : undefined,
    folder_ids: input.folderIds.length > 0 ? input.folderIds : undefined,
    single_model_type: SINGLE_MODEL_TYPE,
    // Sent only when they differ from the server's defaults (auto, the default engine).
    specimen_kind: input.specimenKind && input.specimenKind !== 'auto' ? input.specimenKind : undefined,
    model_id: input.modelId ?? undefined,
  };
  return Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined && v !== null));
}

export async function createPredictionTask(input: PredictionTaskInput): Promise<TaskView> {
  return normalizeTask(await api.post('/tasks/prediction/', buildPredictionPayload(input), taskSchema));
}

export function useCreatePredictionTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPredictionTask,
    // Task lists (tasks and results screens) are reloaded after a change.
    onSuccess: () => client.invalidateQueries({ predicate: (q) => q.queryKey.includes('tasks') }),
  });
}
