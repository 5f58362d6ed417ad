import type { TaskView } from '../../lib/normalize-task';
import { wallSeconds } from '../../lib/task-rate';

export { measuredSecondsPerImage, wallSeconds } from '../../lib/task-rate';

export interface TaskSummary {
  total: number;
  completed: number;
  running: number;
  failed: number;
  /** completed tasks (refused photos are outcomes) as a share of all tasks, in percent, rounded (spec section 2) */
  successRate: number;
}

/**
 * A task's status as an outcome: a refusal is an outcome, not a failure (api.md, Tasks), so a task a backend
 * marked failed although every image was attempted and some were refused counts as completed.
 */
export function outcomeStatus(
  task: Pick<TaskView, 'status' | 'refusedCount' | 'processedCount' | 'imageCount'>,
): string {
  return task.status === 'failed' && task.refusedCount > 0 && task.processedCount >= task.imageCount
    ? 'completed'
    : task.status;
}

/** Tasks per status of a list (by outcome: see `outcomeStatus`). */
export function countStatuses(tasks: TaskView[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of tasks) {
    const status = outcomeStatus(task);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The status badge's words (tasks.json `status.*`): a completed task with refused photos says how many
 * ("Completed, 14 refused"), so refusals read as outcomes rather than as a failure.
 */
export function taskStatusText(
  t: Translate,
  task: Pick<TaskView, 'status' | 'refusedCount' | 'processedCount' | 'imageCount'>,
): string {
  const status = outcomeStatus(task);
  if (status === 'completed' && task.refusedCount > 0)
    return t('status.completed_refused', { count: task.refusedCount });
  return t(`status.${status}`);
}

/**
 * Tasks per status for the summary cards: the server's `status_counts` (over every task, whatever the filter).
 * A backend without them: the rows of an unfiltered list, and while a search or status filter is active the
 * counts of the last unfiltered list (filtered rows would make the totals shrink with every search); the
 * filtered rows only when no unfiltered list was seen.
 */
export function summaryCounts(
  list: { statusCounts: Record<string, number> | null; results: TaskView[]; filtered: boolean } | undefined,
  lastUnfiltered: Record<string, number> | null,
): Record<string, number> {
  if (!list) return lastUnfiltered ?? {};
  if (list.statusCounts) return list.statusCounts;
  if (!list.filtered) return countStatuses(list.results);
  return lastUnfiltered ?? countStatuses(list.results);
}

/** The summary cards from tasks per status (the server's `status_counts`, or `countStatuses` of a list). */
export function summarizeTasks(counts: Record<string, number>): TaskSummary {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const completed = counts.completed ?? 0;
  return {
    total,
    completed,
    running: counts.running ?? 0,
    failed: counts.failed ?? 0,
    successRate: total === 0 ? 0 : Math.round((completed / total) * 100),
  };
}

export type DurationParts =
  { unit: 'hm'; h: number; m: number } | { unit: 'ms'; m: number; s: number } | { unit: 's'; s: number };

/** From creation to completion, or to now while not complete; as hours+minutes, minutes+seconds or seconds. */
export function taskDuration(
  task: Pick<TaskView, 'status' | 'createdDate' | 'completedDate'>,
  now: number,
): DurationParts | null {
  if (!task.createdDate) return null;
  const start = Date.parse(task.createdDate);
  const end = task.status !== 'running' && task.completedDate ? Date.parse(task.completedDate) : now;
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  const total = Math.max(0, Math.floor((end - start) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return { unit: 'hm', h, m };
  if (m > 0) return { unit: 'ms', m, s };
  return { unit: 's', s };
}

/** Processed images shown in the details: floor(progress / 100 x image count). */
export const processedImages = (task: Pick<TaskView, 'progress' | 'imageCount'>) =>
  Math.floor((task.progress / 100) * task.imageCount);

/** Remaining time while running: one minute per 10 % left, rounded up. */
export const remainingMinutes = (progress: number) => Math.ceil((100 - progress) / 10);

export type RemainingEstimate =
  /** from the task's own measured rate: seconds left */
  | { kind: 'measured'; seconds: number }
  /** the seed's stand-in while nothing has been measured yet: one minute per 10 % left */
  | { kind: 'seed'; minutes: number };

/**
 * Remaining time of a running task: the images left at the task's own measured rate (images processed so far
 * over the wall time since it was created); the seed's one minute per 10 % only until one image is done.
 */
export function remainingEstimate(
  task: Pick<TaskView, 'status' | 'createdDate' | 'completedDate' | 'progress' | 'imageCount' | 'processedCount'>,
  now: number,
): RemainingEstimate {
  const elapsed = wallSeconds(task, now);
  const processed = task.processedCount;
  if (elapsed !== null && elapsed > 0 && processed > 0 && task.imageCount > 0) {
    const left = Math.max(0, task.imageCount - processed);
    return { kind: 'measured', seconds: Math.ceil((left * elapsed) / processed) };
  }
  return { kind: 'seed', minutes: remainingMinutes(task.progress) };
}

/** Whether a task scored at least one image (a task with none has no confidence or health split to show). */
export const scoredImages = (task: Pick<TaskView, 'statistics'>) =>
  task.statistics ? task.statistics.healthyCount + task.statistics.diseaseCount : 0;
