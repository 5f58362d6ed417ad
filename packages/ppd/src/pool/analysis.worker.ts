import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { labModelFor } from '../learned/lab-model-cache.js';
import { InvalidLabModelError } from '../learned/lab-model-file.js';
import { labSegmentation } from '../learned/lab-segmentation.js';
import { createColourModel } from '../models/colour-model.js';
import { loadOnnxModel } from '../models/onnx-model.js';
import type { SegmentationModel } from '../models/segmentation-model.js';
import { analyseImage, failedResult } from '../pipeline/analyse-image.js';
import type { AnalysisResult } from '../types.js';
import type { AnalyseRequest, WorkerReply, WorkerSetup } from './messages.js';

// One image at a time per worker; the pool supplies the parallelism, so libvips stays single-threaded here.
sharp.concurrency(1);
sharp.cache(false);

// Scoring is background work: on Linux this lowers only this thread's priority (threads have their own nice
// value), so the HTTP thread answers promptly while the cores are saturated; throughput is unchanged when
// nothing else wants the CPU.
try {
  os.setPriority(19);
} catch {
  // not permitted on some systems: scoring still works at normal priority
}

const setup = workerData as WorkerSetup;
const port = parentPort!;
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

const modelReady: Promise<SegmentationModel | Error> = (async () => {
  try {
    return setup.modelPath ? await loadOnnxModel(setup.modelPath, { threads: 1 }) : createColourModel();
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
})();

modelReady.then((m) => post(m instanceof Error ? { type: 'init_error', message: m.message } : { type: 'ready' }));

/**
 * The encoded images' memory is listed for transfer. sharp's output buffers are external memory that V8 may
 * refuse to detach; those are copied by postMessage instead (small WebPs, tens of kB an image).
 */
function transferables(result: AnalysisResult): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const b of [...result.images.cut2, ...result.images.pred, result.images.overview, result.images.proposal]) {
    if (!b) continue;
    const ab = b.buffer;
    // Only buffers that own their whole ArrayBuffer: detaching a shared pool slab would corrupt others.
    if (ab instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === ab.byteLength) seen.add(ab);
  }
  return [...seen];
}

port.on('message', async (msg: AnalyseRequest) => {
  if (msg.type !== 'analyse') return;
  const started = performance.now();
  const model = await modelReady;
  let result: AnalysisResult;
  if (model instanceof Error) {
    result = failedResult('engine_unavailable', model.message, started);
  } else {
    try {
      // a lab model's classes stand in for the engine's; the parsed forest is kept by id, the per-photo state is new
      const lab = msg.options?.labModel;
      const scoring = lab ? labSegmentation(labModelFor(lab)) : model;
      result = await analyseImage(scoring, msg.input, msg.params, msg.mode, msg.options ?? {});
    } catch (err) {
      result =
        err instanceof InvalidLabModelError
          ? failedResult(err.code, err.message, started)
          : failedResult('internal_error', err instanceof Error ? err.message : String(err), started);
    }
  }
  try {
    post({ type: 'result', id: msg.id, result }, transferables(result));
  } catch {
    post({ type: 'result', id: msg.id, result });
  }
});
