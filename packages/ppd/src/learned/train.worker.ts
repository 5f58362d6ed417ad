import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { LabelledPhoto } from './lab-model-api.js';
import { trainInProcess, TrainingError } from './train-core.js';

/** One training per worker: the thread is started for it and ended after (or terminated to cancel it). */
export type TrainRequest = { type: 'train'; photos: LabelledPhoto[]; name: string; seed?: number; trees?: number };
export type TrainReply =
  | { type: 'progress'; percent: number }
  | { type: 'done'; result: Awaited<ReturnType<typeof trainInProcess>> }
  | { type: 'failed'; code: string; message: string };

// background work, as the analysis workers: on Linux this lowers only this thread's priority
try {
  os.setPriority(19);
} catch {
  // not permitted on some systems: training still works at normal priority
}

const port = parentPort!;
port.once('message', async (msg: TrainRequest) => {
  try {
    const result = await trainInProcess(msg.photos, {
      name: msg.name,
      ...(msg.seed !== undefined ? { seed: msg.seed } : {}),
      ...(msg.trees !== undefined ? { trees: msg.trees } : {}),
      onProgress: (percent) => port.postMessage({ type: 'progress', percent } satisfies TrainReply),
    });
    port.postMessage({ type: 'done', result } satisfies TrainReply);
  } catch (err) {
    const code = err instanceof TrainingError ? err.code : 'training_failed';
    port.postMessage({
      type: 'failed',
      code,
      message: err instanceof Error ? err.message : String(err),
    } satisfies TrainReply);
  }
});
