/**
 * Delivers the jobs of tasks, and the training jobs of lab models (one per model: its row in `models` says
 * whether it is queued, running or done, so it survives restarts like a task's jobs). Two transports share the job rows in the database (`task_jobs`) and hand
 * each job to the scoring job runner (scoring/job-runner.ts), which does it:
 * - `embedded`: an in-process loop claims queued job rows (this file's EmbeddedQueue);
 * - `pg-boss`: jobs are sent to pg-boss and handled by any number of worker processes (scale-out).
 */
export type QueueKind = 'embedded' | 'pg-boss';

export interface TaskQueue {
  readonly kind: QueueKind;
  /** Recovers work of a previous run (jobs left running by a dead process) and starts consuming. */
  start(): Promise<void>;
  /** Stops consuming; in-flight jobs stop after their current image and are queued again. */
  stop(): Promise<void>;
  /** Called after a task and its job rows were committed: makes its jobs runnable. */
  enqueue(taskId: number): Promise<void>;
  /** Signals this process's in-flight jobs of a task to stop at once (after cancel or delete). */
  cancel(taskId: number): void;
  /** Called after a model's row was committed `training`: makes its training job runnable. */
  enqueueTraining(modelId: number): Promise<void>;
  /** Signals this process's training of a model to stop at once (after cancel or delete). */
  cancelTraining(modelId: number): void;
}
