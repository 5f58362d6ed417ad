import type { TFunction } from 'i18next';
import { taskModelLabel } from '../../lib/model-label';
import type { TaskView } from '../../lib/normalize-task';

/**
 * What scored a task, as the row and the details say it: "Lab model: NAME" for a task run with a lab model (its
 * current name from the list of models; else the name the server recorded in `engine_label`; `#id` without
 * either), else the default engine's label.
 */
export function taskModelText(task: TaskView, labModelName: string | null, t: TFunction): string {
  if (task.modelId === null || (labModelName === null && task.engineLabel)) return taskModelLabel(task, t);
  return t('tasks:details.lab_model', { name: labModelName ?? `#${task.modelId}` });
}
