import { useQuery } from '@tanstack/react-query';
import { taskListSchema } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { normalizeTaskList } from '../../../lib/normalize-task';
import { measuredSecondsPerImage } from '../../../lib/task-rate';

/** The newest finished tasks the estimate learns from. */
const MEASURED_TASKS = 20;

/** This server's measured seconds per image (its newest completed tasks), or null when it has none yet. */
export async function getMeasuredRate(signal?: AbortSignal): Promise<number | null> {
  const data = await api.get('/tasks/', { status: 'completed', page_size: MEASURED_TASKS }, signal, taskListSchema);
  return measuredSecondsPerImage(normalizeTaskList(data).results);
}

export function useMeasuredRate() {
  return useQuery({
    queryKey: ['prediction', 'measured-rate'],
    queryFn: ({ signal }) => getMeasuredRate(signal),
    refetchOnMount: 'always',
  });
}
