import os from 'node:os';
import v8 from 'node:v8';
import type { AnalyseOptions } from './learned/lab-model-api.js';
import { COLOUR_ENGINE_INFO } from './models/colour-model.js';
import { loadOnnxModel } from './models/onnx-model.js';
import { parseAnalysisParams } from './params.js';
import { failedResult } from './pipeline/analyse-image.js';
import { WorkerPool } from './pool/worker-pool.js';
import type { AnalysisMode, AnalysisParams, AnalysisResult, Engine, EngineOptions } from './types.js';

/** A job slower than this is abandoned and its worker replaced (the real ONNX model needs seconds a cut). */
const DEFAULT_JOB_TIMEOUT_MS = { colour: 60_000, onnx: 600_000 } as const;

/**
 * Initial old generation of the engine's worker threads, MB. Left to V8, a worker's heap (~12 MB live) got an
 * old-generation limit so tight that every photo's typed arrays started a full incremental collection: about
 * one mark-compact a photo and ~50 ms of marking steps on the worker's own thread (with --single-threaded-gc).
 * Sized once at 64 MB it collects a few times in a hundred photos (issue 22, speed; docs/model.md, Speed).
 */
const WORKER_INITIAL_OLD_SPACE_MB = 64;

/**
 * Sets V8's initial old-space size for the isolates started from now on (the pool's workers; the running
 * isolate keeps its own). V8 reads the flag only when it sets up a new isolate's heap. A size given on the
 * command line is left as it is.
 */
function sizeWorkerHeaps(): void {
  if (process.execArgv.some((a) => /^--initial[-_]old[-_]space[-_]size/.test(a))) return;
  v8.setFlagsFromString(`--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`);
}

/** The worker entry beside this module: .ts under tsx/Vitest (sources), .js from dist/. */
function workerUrl(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './pool/analysis.worker.ts' : './pool/analysis.worker.js', here);
}

/**
 * Starts an engine: the colour engine, or the ONNX engine when `modelPath` is given. The ONNX model is
 * loaded and test-run once here, so a missing or corrupt model rejects now with a clear message.
 */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const modelPath = options.modelPath || undefined;
  let info = COLOUR_ENGINE_INFO;
  if (modelPath) {
    const probe = await loadOnnxModel(modelPath, { threads: 1 });
    info = probe.info;
    await probe.close();
  }
  const size = options.workers && options.workers > 0 ? Math.floor(options.workers) : os.availableParallelism();
  sizeWorkerHeaps();
  const pool = new WorkerPool({
    size,
    workerUrl: workerUrl(),
    setup: { modelPath },
    jobTimeoutMs: options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS[modelPath ? 'onnx' : 'colour'],
  });

  return {
    info,
    async analyse(
      input: Buffer | string,
      params?: Partial<AnalysisParams>,
      mode: AnalysisMode = 'full',
      options: AnalyseOptions = {},
    ): Promise<AnalysisResult> {
      const started = performance.now();
      const checked = parseAnalysisParams(params);
      if (!checked.ok) return failedResult('invalid_parameters', checked.message, started);
      if (typeof input === 'string') return pool.run(input, checked.params, mode, [], options);
      if (!(input instanceof Uint8Array) || input.byteLength === 0) {
        return failedResult('decode_failed', 'the image is empty', started);
      }
      // The worker gets its own copy, handed over without a second copy; the caller keeps its buffer.
      const bytes = new Uint8Array(input.byteLength);
      bytes.set(input);
      return pool.run(bytes, checked.params, mode, [bytes.buffer], options);
    },
    close: () => pool.close(),
  };
}
