import { useTranslation } from 'react-i18next';
import type { TaskView } from '../../../lib/normalize-task';
import { taskDuration } from '../task-figures';

/** A task's duration as text in the current language, "--" when unknown. */
export function useTaskDurationText() {
  const { t } = useTranslation('tasks');
  return (task: TaskView, now: number): string => {
    const d = taskDuration(task, now);
    if (!d) return '--';
    if (d.unit === 'hm') return t('duration.hm', { h: d.h, m: d.m });
    if (d.unit === 'ms') return t('duration.ms', { m: d.m, s: d.s });
    return t('duration.s', { s: d.s });
  };
}
