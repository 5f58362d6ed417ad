import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taskSchema } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { normalizeTask, type TaskView } from '../../../lib/normalize-task';

export async function cancelTask(id: number): Promise<TaskView> {
  return normalizeTask(await api.post(`/tasks/${id}/cancel/`, undefined, taskSchema));
}

export function useCancelTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelTask,
    onSettled: () => client.invalidateQueries({ predicate: (q) => q.queryKey.includes('tasks') }),
  });
}
