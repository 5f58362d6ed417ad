import type { PredictionParameters, TaskSpecimenKind } from '@cassavascope/contract';
import type { AnalyseOptions, AnalysisMode, AnalysisResult, Engine } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { EngineUnavailableError, engineInfo } from '../engine/app-engine.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { isStorageFull } from '../storage/storage-full.js';
import { overviewKey, resultKeyPrefix, specimenImageKey } from '../predictions/result-files.js';
import { specimensFromAnalysis } from '../predictions/stored-specimens.js';
import { ImagesRepository } from '../images/images.repository.js';
import { ResultsRepository, type ResultRecord } from '../predictions/results.repository.js';
import { labModelOption } from '../models/lab-model-files.js';
import { runTraining } from '../models/model-training.js';
import { ModelsRepository } from '../models/models.repository.js';
import { JobsRepository } from '../queue/jobs.repository.js';
import { TaskState } from '../tasks/task-state.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { forEachLimit, type Limit } from '../util/limiter.js';
import type { JobRunner } from './job-runner.js';
import { finishIfComplete, recordOutcome, type RecordOutcome } from './record-outcome.js';
import { analysisParameters, storedTaskParameters } from '../tasks/task-parameters.js';

/** What a job needs; the same in the API process, the embedded queue and a separate worker process. */
export interface JobDeps {
  db: Db;
  storage: BlobStorage;
  engine: Engine;
  log: Logger;
}

export interface RunJobOptions {
  /** aborted = stop before the next image (cancel, delete, shutdown) */
  signal?: AbortSignal | undefined;
  /** shared slots for images in flight in this process */
  limit?: Limit | undefined;
  /** images of this job processed at once (default 2) */
  concurrency?: number | undefined;
}

/** `done`: nothing left to do for this job; `interrupted`: stopped by the signal while its task still runs. */
export type JobOutcome = 'done' | 'interrupted';

/**
 * Runs one job: scores each of its images that has no result yet, stores the engine's files and one
 * result row per image, and keeps the task's counters. Safe to run again after a crash (images with a
 * result are skipped; file keys are deterministic, so a retry overwrites rather than orphans) and by
 * several workers at once. Marks the job done unless interrupted by shutdown.
 */
export async function runJob(deps: JobDeps, jobId: number, options: RunJobOptions = {}): Promise<JobOutcome> {
  const jobs = new JobsRepository(deps.db.kysely);
  const repo = new ScoringReads(deps.db);
  const kysely = deps.db.kysely;
  const job = await jobs.getJob(jobId);
  if (!job) return 'done';
  const task = await repo.getTask(job.task_id);
  if (!task || task.status !== 'running') {
    if (task) await jobs.setJobStatus(jobId, 'done');
    return 'done';
  }
  const params = storedTaskParameters(task.parameters);
  const mode: AnalysisMode = task.type === 'first_segmentation' ? 'cuts' : 'full';
  const analyseOptions: AnalyseOptions = { specimenKind: task.specimen_kind as TaskSpecimenKind };
  const imageIds = JSON.parse(job.image_ids) as number[];
  const already = await repo.imagesWithResults(task.id, imageIds);
  const todo = imageIds.filter((id) => !already.has(id));
  if (todo.length > 0 && task.model_id !== null) {
    const labModel = await labModelOption(deps, task.model_id);
    if (!labModel) {
      await failTask(
        deps,
        task.id,
        `The lab model "${task.model_name ?? task.model_id}" was deleted or cannot be read`,
      );
      return 'done';
    }
    analyseOptions.labModel = labModel;
  }
  if (todo.length > 0 && task.engine_label === null) {
    const info = await engineInfo(deps.engine);
    if (info.name !== 'unavailable') await TaskState.noteEngineLabel(kysely, task.id, info.label);
  }

  let stopped = false;
  let engineError: string | null = null;
  const limit: Limit = options.limit ?? ((fn) => fn());
  await forEachLimit(todo, options.concurrency ?? 2, async (imageId) => {
    if (stopped || options.signal?.aborted) return;
    await limit(async () => {
      // Checked per image so a cancel made through another process stops this one too.
      if (stopped || options.signal?.aborted || (await TaskState.status(kysely, task.id)) !== 'running') {
        stopped = true;
        return;
      }
      try {
        await scoreImage(deps, repo, task.id, imageId, params, mode, analyseOptions);
      } catch (err) {
        if (!(err instanceof EngineUnavailableError)) throw err;
        engineError = err.message;
        stopped = true;
      }
    });
  });

  if (engineError !== null) {
    await failTask(deps, task.id, engineError);
    return 'done';
  }
  const status = await TaskState.status(kysely, task.id);
  if (status === 'running' && options.signal?.aborted) return 'interrupted';
  if (status !== undefined) {
    await finishIfComplete(kysely, task.id);
    await jobs.setJobStatus(jobId, 'done');
  }
  return 'done';
}

/** The task could not run: failed with the reason, its jobs closed, in one transaction. */
async function failTask(deps: JobDeps, taskId: number, message: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await TaskState.fail(trx, taskId, message);
    await new JobsRepository(trx).closeJobsOf(taskId, false);
  });
}

/**
 * Running tasks whose jobs were all given up: their images without a result get new jobs (`split_count` images
 * each); a task whose every image has a result finishes. Returns the tasks reopened.
 */
async function recoverStranded(deps: JobDeps): Promise<number[]> {
  const jobs = new JobsRepository(deps.db.kysely);
  const results = new ResultsRepository(deps.db.kysely);
  const reopened: number[] = [];
  for (const t of await jobs.strandedTasks()) {
    const done = await results.imagesWithResults(t.id, t.imageIds);
    const missing = t.imageIds.filter((id) => !done.has(id));
    if (missing.length === 0) {
      await finishIfComplete(deps.db.kysely, t.id);
      continue;
    }
    await jobs.insertJobs(t.id, missing, t.splitCount, new Date().toISOString());
    reopened.push(t.id);
  }
  return reopened;
}

/**
 * A job stopped by a shutdown: its images without a result become a new queued job, and this one is done, in
 * one transaction. Returns whether anything was left. (pg-boss then completes the old job instead of counting a
 * failure: a job interrupted by several deploys must not end its task failed.)
 */
async function handOverRemainder(deps: JobDeps, jobId: number): Promise<boolean> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const jobs = new JobsRepository(trx);
    const job = await jobs.getJob(jobId);
    if (!job || job.status === 'done') return false;
    const ids = JSON.parse(job.image_ids) as number[];
    const done = await new ResultsRepository(trx).imagesWithResults(job.task_id, ids);
    const missing = ids.filter((imageId) => !done.has(imageId));
    await jobs.handOver(job, missing);
    return missing.length > 0;
  });
}

/** The job runner the queue transports hand their jobs to (job-runner.ts). */
export function createJobRunner(deps: JobDeps): JobRunner {
  return {
    run: (jobId, options) => runJob(deps, jobId, options),
    giveUp: (taskId, message) => failTask(deps, taskId, message),
    recoverStranded: () => recoverStranded(deps),
    handOverRemainder: (jobId) => handOverRemainder(deps, jobId),
    train: (modelId, signal) => runTraining(deps, modelId, signal),
    async giveUpTraining(modelId, message) {
      await new ModelsRepository(deps.db.kysely).stopTraining(modelId, 'failed', message);
    },
  };
}

/** What scoring reads besides jobs: the task and the image to score, and which images have results. */
class ScoringReads {
  private readonly results: ResultsRepository;
  private readonly tasks: TasksRepository;
  private readonly images: ImagesRepository;
  constructor(private readonly db: Db) {
    this.results = new ResultsRepository(db.kysely);
    this.tasks = new TasksRepository(db.kysely);
    this.images = new ImagesRepository(db.kysely, db.dialect);
  }
  getTask(id: number) {
    return this.tasks.get(id);
  }
  imageForScoring(id: number) {
    return this.images.getById(id);
  }
  imagesWithResults(taskId: number, imageIds: number[]) {
    return this.results.imagesWithResults(taskId, imageIds);
  }
  hasResult(taskId: number, imageId: number) {
    return this.results.hasResult(taskId, imageId);
  }
  recordResult(rec: ResultRecord): Promise<RecordOutcome> {
    return recordOutcome(this.db.kysely, rec);
  }
}

/** Scores one image and records its outcome; every image ends with exactly one row. */
async function scoreImage(
  deps: JobDeps,
  repo: ScoringReads,
  taskId: number,
  imageId: number,
  params: PredictionParameters,
  mode: AnalysisMode,
  analyseOptions: AnalyseOptions,
): Promise<void> {
  const started = performance.now();
  const image = await repo.imageForScoring(imageId);
  const bytes = image ? await deps.storage.getBuffer(image.blob_key) : null;
  const name = image?.name ?? `image ${imageId}`;
  /** Records this image as failed with `code` (the engine's time and what it saw, when it got that far). */
  const fail = (code: string, message: string, engineSeconds?: number, overview: Buffer | null = null) =>
    recordFailure(deps, repo, taskId, imageId, name, code, message, started, engineSeconds, overview);
  if (!image) return fail('image_deleted', 'The image was deleted before it was scored');
  // Row present, bytes not: deleted a moment ago (then recorded as image_deleted), or storage lost them.
  if (!bytes) return fail('image_unreadable', 'The stored original could not be read');
  let analysis: AnalysisResult;
  try {
    analysis = await deps.engine.analyse(bytes, analysisParameters(params), mode, analyseOptions);
  } catch (err) {
    if (err instanceof EngineUnavailableError) throw err;
    deps.log.error({ err, taskId, imageId }, 'the engine failed on an image');
    return fail('engine_error', 'The engine failed on this image');
  }
  if (analysis.error_code !== null) {
    // A refused photo may still come with the overview of what the engine saw: stored as the row's overview.
    const message = analysis.error_message ?? analysis.error_code;
    return fail(analysis.error_code, message, analysis.processing_time, analysis.images?.overview ?? null);
  }

  let written: Awaited<ReturnType<typeof storeFiles>>;
  try {
    written = await storeFiles(deps.storage, taskId, imageId, analysis);
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    // A full disk or object store fails this image, not the task: it is marked storage_full and the task
    // carries on (the results recorded so far stay); re-run it once space is freed.
    deps.log.warn({ err, taskId, imageId }, 'the result images could not be stored: storage full');
    const message = 'The result images could not be stored: the disk (or object store) is full';
    return fail('storage_full', message, analysis.processing_time);
  }
  const specimens = specimensFromAnalysis(analysis, written.visKeys);
  const outcome = await repo.recordResult({
    taskId,
    imageId,
    imageName: name,
    ppdValue: analysis.ppd_value,
    subPpdValues: analysis.sub_ppd_values,
    prediction: analysis.prediction,
    confidence: analysis.confidence,
    ossKey: written.ossKey,
    visKeys: written.visKeys,
    specimens,
    needsReview: analysis.needs_review === true || specimens.some((s) => s.needs_review),
    errorCode: null,
    errorMessage: null,
    processingTime: round3(analysis.processing_time),
  });
  await removeUnusedFiles(deps.storage, repo, outcome, taskId, imageId, written.all);
}

/** Files no row points at are removed: the task stopped meanwhile, or the image was deleted. */
async function removeUnusedFiles(
  storage: BlobStorage,
  repo: ScoringReads,
  outcome: RecordOutcome,
  taskId: number,
  imageId: number,
  keys: string[],
): Promise<void> {
  if (keys.length === 0) return;
  const unused =
    (outcome.kind === 'stored' && outcome.imageDeleted) ||
    (outcome.kind === 'discarded' && !(await repo.hasResult(taskId, imageId)));
  if (unused) await storage.delete(keys);
}

async function recordFailure(
  deps: JobDeps,
  repo: ScoringReads,
  taskId: number,
  imageId: number,
  name: string,
  code: string,
  message: string,
  started: number,
  engineSeconds?: number,
  overview: Buffer | null = null,
): Promise<void> {
  let ossKey: string | null = null;
  if (overview) {
    try {
      await deps.storage.putBuffer(overviewKey(taskId, imageId), overview, 'image/webp');
      ossKey = overviewKey(taskId, imageId);
    } catch (err) {
      // The failure is what must be recorded; its picture is a courtesy (e.g. a full disk): the row goes without.
      deps.log.warn({ err, taskId, imageId }, 'the overview of a refused image could not be stored');
    }
  }
  const rec: ResultRecord = {
    taskId,
    imageId,
    imageName: name,
    ppdValue: null,
    subPpdValues: [],
    prediction: null,
    confidence: null,
    ossKey,
    visKeys: {},
    specimens: [],
    needsReview: false,
    errorCode: code,
    errorMessage: message,
    processingTime: round3(engineSeconds ?? (performance.now() - started) / 1000),
  };
  const outcome = await repo.recordResult(rec);
  // A crash after an earlier attempt wrote files leaves them under this image's prefix: clear all but the
  // overview this row points at (none when the image was deleted meanwhile: the row then has no overview).
  if (outcome.kind === 'stored') {
    await deleteUnder(deps.storage, resultKeyPrefix(taskId, imageId), outcome.imageDeleted ? null : ossKey);
  } else if (ossKey) {
    await removeUnusedFiles(deps.storage, repo, outcome, taskId, imageId, [ossKey]);
  }
}

async function storeFiles(storage: BlobStorage, taskId: number, imageId: number, a: AnalysisResult) {
  const visKeys: Record<string, string> = {};
  const puts: Promise<void>[] = [];
  a.images.cut2.forEach((buf, i) => {
    const key = specimenImageKey(taskId, imageId, 'cut2', i + 1);
    visKeys[`cut2_${i + 1}`] = key;
    puts.push(storage.putBuffer(key, buf, 'image/webp'));
  });
  a.images.pred.forEach((buf, i) => {
    const key = specimenImageKey(taskId, imageId, 'pred', i + 1);
    visKeys[`pred_${i + 1}`] = key;
    puts.push(storage.putBuffer(key, buf, 'image/webp'));
  });
  let ossKey: string | null = null;
  if (a.images.overview) {
    ossKey = overviewKey(taskId, imageId);
    puts.push(storage.putBuffer(ossKey, a.images.overview, 'image/webp'));
  }
  const all = [...Object.values(visKeys), ...(ossKey ? [ossKey] : [])];
  try {
    await Promise.all(puts);
  } catch (err) {
    await storage.delete(all);
    throw err;
  }
  return { ossKey, visKeys, all };
}

async function deleteUnder(storage: BlobStorage, prefix: string, keep: string | null = null): Promise<void> {
  const keys: string[] = [];
  for await (const key of storage.list(prefix)) if (key !== keep) keys.push(key);
  if (keys.length > 0) await storage.delete(keys);
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
