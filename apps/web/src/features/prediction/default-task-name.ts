import { TASK_NAME_MAX } from '@cassavascope/contract';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Spec section 2: a default name plus the current local date-time, e.g. "Trial A 2026-11-22 09:41:05"; the
 * subject says what the task scores (taskSubject).
 */
export function defaultTaskName(subject: string, now: Date = new Date()): string {
  const stamp =
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ` +
    `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  // The stamp is kept whole: a long subject is cut instead.
  return `${subject.slice(0, Math.max(0, TASK_NAME_MAX - stamp.length - 1))} ${stamp}`.trim();
}

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * What a task scores, for its default name (issue 25 item 9: "Task name 2026-..." said nothing): the picked folder
 * ("Trial A"; "Trial A and 2 more" with other folders or photos), else the specimen kind chosen ("Root slices"),
 * else how many photos ("12 photos"); "Prediction" while nothing is picked.
 */
export function taskSubject(
  t: T,
  pick: {
    /** names of the folders picked whole, in the order shown */
    folderNames: readonly string[];
    /** images picked one by one outside those folders */
    looseImages: number;
    /** the specimen kind chosen ('auto': the engine decides) */
    specimenKind: string;
  },
): string {
  const [first] = pick.folderNames;
  if (first !== undefined) {
    const more = pick.folderNames.length - 1 + pick.looseImages;
    return more === 0 ? first : t('task_default.folders_more', { name: first, count: more });
  }
  if (pick.specimenKind !== 'auto') return t(`config.specimen_kinds.${pick.specimenKind}`);
  if (pick.looseImages > 0) return t('task_default.photos', { count: pick.looseImages });
  return t('task_default.nothing');
}
