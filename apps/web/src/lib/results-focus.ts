/**
 * Hand-over between two sections (there are no URL routes to carry it): the Tasks screen's "View results"
 * names the task the Results screen should select when it opens next.
 */
let pendingTaskId: number | null = null;

export function focusResultsOnTask(taskId: number): void {
  pendingTaskId = taskId;
}

/** The task to select, once: reading it clears it. */
export function takeResultsFocus(): number | null {
  const id = pendingTaskId;
  pendingTaskId = null;
  return id;
}
