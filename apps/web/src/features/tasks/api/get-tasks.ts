import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { taskListSchema } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { normalizeTaskList, type TaskList } from '../../../lib/normalize-task';

/** While any task runs the list is refreshed this often. */
export const TASK_POLL_MS = 2_000;

/** Rows asked for at first; "show more" asks for this many more. */
export const TASKS_PAGE = 100;

export const TASKS_KEY = ['tasks', 'list'] as const;

/** What the screen shows: a name search, a status (or 'all') and how many of the newest matches. */
export interface TaskListParams {
  search: string;
  status: string;
  limit: number;
}

/** Whether a list answers a name search or a status filter (not every task). */
export const isFilteredList = (params: Pick<TaskListParams, 'search' | 'status'>) =>
  params.search.trim() !== '' || params.status !== 'all';

/** A page of tasks, and whether it is a filtered one (the summary's fallback must know). */
export interface TaskListResult extends TaskList {
  filtered: boolean;
}

export async function getTasks(params: TaskListParams, signal?: AbortSignal): Promise<TaskListResult> {
  const query = {
    page_size: params.limit,
    search: params.search.trim() || undefined,
    status: params.status === 'all' ? undefined : params.status,
  };
  return {
    ...normalizeTaskList(await api.get('/tasks/', query, signal, taskListSchema)),
    filtered: isFilteredList(params),
  };
}

/** Whether any task runs anywhere (not only among the rows shown). */
export const anyTaskRunning = (list: TaskList | undefined) =>
  list ? (list.statusCounts?.running ?? list.results.filter((task) => task.status === 'running').length) > 0 : false;

/**
 * The newest tasks matching the search and status, filtered by the server, with the counts per status
 * of every task for the summary cards. While any task runs it is polled, one request per interval
 * however many run; it stops when none does.
 */
export function useTasks(params: TaskListParams) {
  return useQuery({
    queryKey: [...TASKS_KEY, params],
    queryFn: ({ signal }) => getTasks(params, signal),
    placeholderData: keepPreviousData,
    // Tasks also change outside this screen (other tabs, the API): opening it always asks the server.
    refetchOnMount: 'always',
    refetchInterval: (query) => (anyTaskRunning(query.state.data) ? TASK_POLL_MS : false),
  });
}
