import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_MAX, taskListSchema } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { normalizeTaskList, type TaskView } from '../../../lib/normalize-task';

const POLL_MS = 5_000;

export async function getResultTasks(signal?: AbortSignal): Promise<{ count: number; results: TaskView[] }> {
  return normalizeTaskList(await api.get('/tasks/', { page_size: PAGE_SIZE_MAX }, signal, taskListSchema));
}

/** The task sidebar; refreshed while a task runs, so its result counts grow on screen. */
export function useResultTasks() {
  return useQuery({
    queryKey: ['results', 'tasks'],
    queryFn: ({ signal }) => getResultTasks(signal),
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data?.results.some((task) => task.status === 'running') ? POLL_MS : false),
  });
}
