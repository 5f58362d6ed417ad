/**
 * Hand-over to the Samples section (no URL carries it): the Results screen's "By group" opens the group table of
 * the task it shows (`null`: all tasks).
 */
let pending: { taskId: number | null } | null = null;

export function focusSamplesOnGroups(taskId: number | null): void {
  pending = { taskId };
}

/** The hand-over, if any (reading does not clear it: render may run twice). */
export function peekSamplesFocus(): { taskId: number | null } | null {
  return pending;
}

/** Called once the Samples screen has taken the hand-over. */
export function clearSamplesFocus(): void {
  pending = null;
}
