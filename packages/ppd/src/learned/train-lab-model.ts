import { Worker } from 'node:worker_threads';
import type { LabelledPhoto, TrainedLabModel, TrainOptions } from './lab-model-api.js';
import { checkLabels, TrainingError } from './train-core.js';
import type { TrainReply, TrainRequest } from './train.worker.js';

/** A failed training: `code` is `not_enough_labels`, `unreadable_photo` or `training_failed`. */
export { TrainingError };

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('the training was cancelled', 'AbortError');
}

/** The worker entry beside this module: .ts under tsx/Vitest (sources), .js from dist/. */
function spawn(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return new Worker(new URL('../pool/tsx-worker-bootstrap.mjs', here), {
      workerData: { entry: new URL('./train.worker.ts', here).href },
      execArgv: ['--conditions=source'],
    });
  }
  return new Worker(new URL('./train.worker.js', here));
}

const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/**
 * Trains a lab model from labelled photos in a worker thread (the caller's event loop stays free): progress
 * through `onProgress`, cancelled by `signal` (the thread is terminated; the promise rejects with an AbortError).
 * Throws TrainingError('not_enough_labels') at once for fewer than 2 labelled photos or no healthy or no
 * discoloured pixel.
 */
export function trainLabModel(photos: LabelledPhoto[], options: TrainOptions): Promise<TrainedLabModel> {
  try {
    checkLabels(photos);
  } catch (err) {
    return Promise.reject(err);
  }
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<TrainedLabModel>((resolve, reject) => {
    const worker = spawn();
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => finish(() => reject(abortError(signal!)));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (reply: TrainReply) => {
      if (reply.type === 'progress') options.onProgress?.(reply.percent);
      else if (reply.type === 'failed')
        finish(() =>
          reject(
            reply.code === 'not_enough_labels' || reply.code === 'unreadable_photo'
              ? new TrainingError(reply.code, reply.message)
              : Object.assign(new Error(reply.message), { code: reply.code }),
          ),
        );
      else {
        const r = reply.result;
        finish(() =>
          resolve({
            ...r,
            file: asBuffer(r.file),
            heldout: r.heldout.map((h) => ({
              ...h,
              model_overlay: asBuffer(h.model_overlay),
              baseline_overlay: asBuffer(h.baseline_overlay),
            })),
          }),
        );
      }
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`the training worker stopped unexpectedly (exit code ${code})`))),
    );
    // the photos are copied to the worker (the caller keeps its buffers)
    const request: TrainRequest = { type: 'train', photos, name: options.name };
    if (options.seed !== undefined) request.seed = options.seed;
    if (options.trees !== undefined) request.trees = options.trees;
    worker.postMessage(request);
  });
}
