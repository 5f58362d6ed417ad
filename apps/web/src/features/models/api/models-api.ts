import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { imageSchema, modelSchema } from '@cassavascope/contract';
import { normalizeImage } from '../../../lib/normalize-image';
import { api, apiRequest, listCount, uploadWithProgress } from '../../../lib/api-client';
import { LAB_MODEL_POLL_MS, LAB_MODELS_KEY, normalizeLabModel, type LabModelView } from '../../../lib/lab-models';

/** The calls of the Models screen (api.md "Labels and lab models"); the list itself is lib/lab-models.ts. */

/** One model with its held-out photos; polled while it trains. */
export function useLabModel(id: number | null) {
  return useQuery({
    queryKey: [...LAB_MODELS_KEY, 'one', id],
    enabled: id !== null,
    queryFn: async ({ signal }) => normalizeLabModel(await api.get(`/models/${id}/`, undefined, signal, modelSchema)),
    refetchInterval: (query) => (query.state.data?.status === 'training' ? LAB_MODEL_POLL_MS : false),
  });
}

/**
 * The file names of the held-out photos (a model names them by id): one `GET /images/{id}/` each, a handful per
 * model; a photo deleted since is left out (the overlays say "Photo #id").
 */
export function useImageNames(ids: number[]): Map<number, string> {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['images', 'one', id],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        normalizeImage(await api.get(`/images/${id}/`, undefined, signal, imageSchema)),
      staleTime: 60_000,
      retry: false,
    })),
  });
  const names = new Map<number, string>();
  for (const r of results) if (r.data) names.set(r.data.id, r.data.name);
  return names;
}

/** How many photos carry labels (the training needs 2 or more with healthy and lesion pixels). */
export function useLabelledPhotoCount() {
  return useQuery({
    queryKey: [...LAB_MODELS_KEY, 'labelled-photos'],
    queryFn: async ({ signal }) => listCount(await api.get('/images/', { has_labels: true, page_size: 1 }, signal)),
  });
}

export interface TrainInput {
  name: string;
  /** empty: every labelled photo */
  folderIds: number[];
}

function useModelMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: LAB_MODELS_KEY }),
  });
}

export const useTrainModel = () =>
  useModelMutation(async (input: TrainInput) =>
    normalizeLabModel(
      await api.post(
        '/models/',
        {
          name: input.name.trim(),
          ...(input.folderIds.length > 0 ? { folder_ids: input.folderIds } : {}),
        },
        modelSchema,
      ),
    ),
  );

export const useRenameModel = () =>
  useModelMutation(async ({ id, name }: { id: number; name: string }) =>
    normalizeLabModel(
      await apiRequest(`/models/${id}/`, { method: 'PATCH', body: { name: name.trim() }, schema: modelSchema }),
    ),
  );

export const useDeleteModel = () => useModelMutation((id: number) => api.delete(`/models/${id}/`));

export const useCancelTraining = () => useModelMutation((id: number) => api.post(`/models/${id}/cancel/`));

export const useImportModel = () =>
  useModelMutation(async (file: File): Promise<LabModelView> => {
    const form = new FormData();
    form.append('file', file);
    return normalizeLabModel(
      await uploadWithProgress('/models/import/', form, () => undefined, undefined, modelSchema),
    );
  });

/** Where the portable model file is downloaded from. */
export const modelFileUrl = (id: number) => `/api/models/${id}/file/`;
