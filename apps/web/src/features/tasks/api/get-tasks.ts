import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_MAX } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { normalizeTaskList, type TaskView } from '../../../lib/normalize-task';

/** While any task runs the list is refreshed this often. */
export const TASK_POLL_MS = 2_000;

export const TASKS_KEY = ['tasks', 'list'] as const;

export async function getTasks(signal?: AbortSignal): Promise<{ count: number; results: TaskView[] }> {
  return normalizeTaskList(await api.get<unknown>('/tasks/', { page_size: PAGE_SIZE_MAX }, signal));
}

export const hasRunningTask = (tasks: TaskView[] | undefined) => tasks?.some((task) => task.status === 'running') ?? false;

/**
 * Every task in one request: the summary cards, the client-side search and status filter and the details
 * modal all read it. While any task runs it is polled, one request per interval however many run; it stops
 * when none does.
 */
export function useTasks() {
  return useQuery({
    queryKey: TASKS_KEY,
    queryFn: ({ signal }) => getTasks(signal),
    // Tasks also change outside this screen (other tabs, the API): opening it always asks the server.
    refetchOnMount: 'always',
    refetchInterval: (query) => (hasRunningTask(query.state.data?.results) ? TASK_POLL_MS : false),
  });
}
