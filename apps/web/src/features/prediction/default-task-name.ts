import { TASK_NAME_MAX } from '@cassavascope/contract';

const pad = (n: number) => String(n).padStart(2, '0');

/** Spec section 2: the task-name label plus the current local date-time, e.g. "Task name 2026-11-22 09:41:05". */
export function defaultTaskName(label: string, now: Date = new Date()): string {
  const stamp =
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ` +
    `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return `${label} ${stamp}`.slice(0, TASK_NAME_MAX);
}
