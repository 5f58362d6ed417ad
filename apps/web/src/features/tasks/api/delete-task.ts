import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Deletes the task, its results and their stored files; never the original images. */
export async function deleteTask(id: number): Promise<void> {
  await api.delete(`/tasks/${id}/`);
}

export function useDeleteTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    // Task lists, results and the images' PPD all change.
    onSettled: () => client.invalidateQueries(),
  });
}
