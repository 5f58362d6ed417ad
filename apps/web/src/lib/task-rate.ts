import type { TaskView } from './normalize-task';

/**
 * Wall time of a task in seconds: from creation to completion, or to `now` while it runs (what a researcher
 * waits). The server's `statistics.processingTime` is the engine time summed over every worker, which exceeds
 * the wall time whenever several workers run at once.
 */
export function wallSeconds(
  task: Pick<TaskView, 'status' | 'createdDate' | 'completedDate'>,
  now: number,
): number | null {
  if (!task.createdDate) return null;
  const start = Date.parse(task.createdDate);
  const end =
    task.status !== 'running' && task.completedDate
      ? Date.parse(task.completedDate)
      : task.status === 'running'
        ? now
        : NaN;
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  return Math.max(0, (end - start) / 1000);
}

/**
 * This server's measured scoring rate, in seconds per image, from its finished tasks: their wall time over the
 * images they processed (tasks that processed nothing are left out). Null when no task has been measured.
 */
export function measuredSecondsPerImage(
  tasks: Pick<TaskView, 'status' | 'createdDate' | 'completedDate' | 'processedCount'>[],
): number | null {
  let seconds = 0;
  let images = 0;
  for (const task of tasks) {
    if (task.status !== 'completed' || task.processedCount <= 0) continue;
    const wall = wallSeconds(task, 0);
    if (wall === null) continue;
    seconds += wall;
    images += task.processedCount;
  }
  return images > 0 ? seconds / images : null;
}
