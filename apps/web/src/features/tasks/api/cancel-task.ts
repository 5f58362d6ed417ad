import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { normalizeTask, type TaskView } from '../../../lib/normalize-task';

export async function cancelTask(id: number): Promise<TaskView> {
  return normalizeTask(await api.post<unknown>(`/tasks/${id}/cancel/`));
}

export function useCancelTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelTask,
    onSettled: () => client.invalidateQueries({ predicate: (q) => q.queryKey.includes('tasks') }),
  });
}
