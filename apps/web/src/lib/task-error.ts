import type { TaskView } from './normalize-task';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Why a task failed, in the UI's language (tasks.json `details.error.*`). The server's `error_message` is English
 * and carries no code, so the reason is read from the task's counters: every image failed (each result then says
 * why, by its code), or the task itself could not run (the engine did not start). The English text stays
 * available as the alert's title (hover), never as the visible sentence. Null when there is nothing to say.
 */
export function taskErrorText(
  t: Translate,
  task: Pick<TaskView, 'status' | 'errorMessage' | 'failedCount' | 'imageCount'>,
): string | null {
  if (task.status !== 'failed' && !task.errorMessage) return null;
  if (task.imageCount > 0 && task.failedCount >= task.imageCount)
    return t('details.error.all_failed', { count: task.failedCount });
  if (task.status === 'failed' || task.errorMessage) return t('details.error.not_run');
  return null;
}
