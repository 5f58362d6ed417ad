import type { TaskView } from '../../lib/normalize-task';

export interface TaskSummary {
  total: number;
  completed: number;
  running: number;
  failed: number;
  /** completed tasks as a share of all tasks, in percent, rounded (spec section 2) */
  successRate: number;
}

export function summarizeTasks(tasks: TaskView[]): TaskSummary {
  const count = (status: string) => tasks.filter((task) => task.status === status).length;
  const completed = count('completed');
  return {
    total: tasks.length,
    completed,
    running: count('running'),
    failed: count('failed'),
    successRate: tasks.length === 0 ? 0 : Math.round((completed / tasks.length) * 100),
  };
}

/** Search by name (case-insensitive) and the status dropdown. */
export function filterTasks(tasks: TaskView[], search: string, status: string): TaskView[] {
  const needle = search.trim().toLowerCase();
  return tasks.filter(
    (task) => (status === 'all' || task.status === status) && (needle === '' || task.name.toLowerCase().includes(needle)),
  );
}

export type DurationParts = { unit: 'hm'; h: number; m: number } | { unit: 'ms'; m: number; s: number } | { unit: 's'; s: number };

/** From creation to completion, or to now while not complete; as hours+minutes, minutes+seconds or seconds. */
export function taskDuration(task: Pick<TaskView, 'status' | 'createdDate' | 'completedDate'>, now: number): DurationParts | null {
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
