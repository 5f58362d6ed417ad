import { Worker } from 'node:worker_threads';
import type { AnalyseOptions } from '../learned/lab-model-api.js';
import { failedResult } from '../pipeline/analyse-image.js';
import type { AnalysisMode, AnalysisParams, AnalysisResult } from '../types.js';
import type { AnalyseRequest, WorkerReply, WorkerSetup } from './messages.js';

export interface PoolOptions {
  size: number;
  /** the worker entry file; a .ts file is run through tsx (tests run the sources) */
  workerUrl: URL;
  setup: WorkerSetup;
  /** a job taking longer is abandoned: its worker is terminated and replaced */
  jobTimeoutMs: number;
}

const MAX_STARTUP_FAILURES = 3;

interface Job {
  id: number;
  request: AnalyseRequest;
  transfer: ArrayBuffer[];
  started: number;
  resolve: (r: AnalysisResult) => void;
}

interface Slot {
  worker: Worker;
  /** set when the worker has loaded its model; jobs (and their timers) start only then */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * A fixed set of worker threads, one image each at a time. A worker that crashes or hangs is replaced and its
 * job answered with an error result, so callers always get a result and the pool keeps its size.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** workers that died before becoming ready, in a row; a pool that cannot start a worker stops trying */
  private startupFailures = 0;
  private broken: string | null = null;

  constructor(private readonly options: PoolOptions) {
    for (let i = 0; i < Math.max(1, options.size); i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  private spawn(): Slot {
    const url = this.options.workerUrl;
    // From sources, a plain-JS bootstrap registers tsx in the thread and then imports the .ts entry.
    const fromSources = url.pathname.endsWith('.ts');
    const worker = fromSources
      ? new Worker(new URL('./tsx-worker-bootstrap.mjs', import.meta.url), {
          workerData: { ...this.options.setup, entry: url.href },
          execArgv: ['--conditions=source'],
        })
      : new Worker(url, { workerData: this.options.setup });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready' || reply.type === 'init_error') {
        slot.ready = true;
        this.startupFailures = 0;
        this.dispatch();
        return;
      }
      if (reply.type !== 'result' || !slot.job || slot.job.id !== reply.id) return;
      this.finish(slot, reviveBuffers(reply.result));
    });
    let lastError = '';
    worker.on('error', (err) => {
      // 'exit' follows and replaces the worker; the job is answered there, with this reason.
      lastError = err instanceof Error ? err.message : String(err);
    });
    worker.on('exit', () => {
      const job = slot.job;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.job = null;
      if (job && this.closed)
        job.resolve(failedResult('engine_closed', 'the engine was closed during the analysis', job.started));
      else if (job)
        job.resolve(
          failedResult(
            'engine_crashed',
            `the analysis worker stopped unexpectedly${lastError ? `: ${lastError}` : ''}`,
            job.started,
          ),
        );
      if (!slot.ready && !this.closed && ++this.startupFailures >= MAX_STARTUP_FAILURES) {
        this.broken = `analysis workers cannot start${lastError ? `: ${lastError}` : ''}`;
        for (const queued of this.queue.splice(0))
          queued.resolve(failedResult('engine_unavailable', this.broken, queued.started));
        return;
      }
      if (!this.closed) {
        const idx = this.slots.indexOf(slot);
        if (idx >= 0) this.slots[idx] = this.spawn();
        this.dispatch();
      }
    });
    return slot;
  }

  private finish(slot: Slot, result: AnalysisResult | null): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const job = slot.job;
    slot.job = null;
    if (job && result) job.resolve(result);
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job || !slot.ready) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => {
        if (slot.job !== job) return;
        slot.job = null;
        job.resolve(
          failedResult('engine_timeout', `analysis took longer than ${this.options.jobTimeoutMs} ms`, job.started),
        );
        void slot.worker.terminate();
      }, this.options.jobTimeoutMs);
      slot.worker.postMessage(job.request, job.transfer);
    }
  }

  run(
    input: Uint8Array | string,
    params: AnalysisParams,
    mode: AnalysisMode,
    transfer: ArrayBuffer[] = [],
    options: AnalyseOptions = {},
  ): Promise<AnalysisResult> {
    const started = performance.now();
    if (this.closed) return Promise.resolve(failedResult('engine_closed', 'the engine has been closed', started));
    if (this.broken) return Promise.resolve(failedResult('engine_unavailable', this.broken, started));
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.queue.push({
        id,
        request: { type: 'analyse', id, input, params, mode, options },
        transfer,
        started,
        resolve,
      });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.resolve(failedResult('engine_closed', 'the engine has been closed', job.started));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

/** Images arrive as plain Uint8Arrays; wrap them as Buffers over the same memory. */
function reviveBuffers(r: AnalysisResult): AnalysisResult {
  const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return {
    ...r,
    images: {
      cut2: r.images.cut2.map(buf),
      pred: r.images.pred.map(buf),
      overview: r.images.overview ? buf(r.images.overview) : null,
      ...(r.images.proposal !== undefined ? { proposal: r.images.proposal ? buf(r.images.proposal) : null } : {}),
    },
  };
}
