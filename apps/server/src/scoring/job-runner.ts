import type { JobOutcome, RunJobOptions } from './run-job.js';

/**
 * What a queue transport hands its jobs to. The queue only delivers (claims job rows, carries messages,
 * retries); everything a job does to tasks and results happens behind this interface (`scoring/`).
 */
export interface JobRunner {
  /** Does one job; `interrupted` when the signal stopped it while its task still runs. */
  run(jobId: number, options?: RunJobOptions): Promise<JobOutcome>;
  /** A job kept failing and was given up: its task fails with the reason. */
  giveUp(taskId: number, message: string): Promise<void>;
  /** At start: running tasks whose jobs were all given up get new jobs for their images without a result (or finish). */
  recoverStranded(): Promise<number[]>;
  /** A job stopped by a shutdown: its images without a result go to a new queued job; true when any were left. */
  handOverRemainder(jobId: number): Promise<boolean>;
  /** Trains one lab model (models/model-training.ts); `interrupted` when the signal stopped it while it still trains. */
  train(modelId: number, signal?: AbortSignal): Promise<JobOutcome>;
  /** A training kept failing and was given up: its model fails with the reason. */
  giveUpTraining(modelId: number, message: string): Promise<void>;
}
