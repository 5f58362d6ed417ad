/**
 * Hand-over between two sections (there are no URL routes to carry it): the Tasks screen's "View results"
 * names the task the Results screen should select when it opens next.
 */
let pendingTaskId: number | null = null;

export function focusResultsOnTask(taskId: number): void {
  pendingTaskId = taskId;
}

/** The task to select, if one was handed over (reading does not clear it: render may run twice). */
export function peekResultsFocus(): number | null {
  return pendingTaskId;
}

/** Called once the Results screen has taken the hand-over. */
export function clearResultsFocus(): void {
  pendingTaskId = null;
}
