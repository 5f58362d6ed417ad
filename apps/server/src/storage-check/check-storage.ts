import crypto from 'node:crypto';
import type { StorageProblem, StorageProblemFile } from '@cassavascope/contract';
import type { Db } from '../db/database.js';
import { ImagesRepository } from '../images/images.repository.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { ModelsRepository } from '../models/models.repository.js';
import { resultKeyOwner } from '../predictions/result-files.js';
import { ResultsRepository } from '../predictions/results.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { forEachLimit } from '../util/limiter.js';

/** Rows read, and stored keys judged, at once. */
const PAGE = 500;
/** Files read or looked up at once (a disk or an object store: a few requests in flight keep it busy). */
const CONCURRENCY = 4;

/** originals/ and thumbs/ are named by the original's sha256 (uploads/): looked up by the images' sha256 index */
const CONTENT_KEY = /^(?:originals|thumbs)\/[0-9a-f]{2}\/([0-9a-f]{64})\.[a-z0-9]+$/;
const LABEL_KEY = /^labels\//;
const MODEL_KEY = /^models\/(\d{1,15})\//;
/** Refused uploads kept for the user's choice: short-lived, swept each minute by their own owner (uploads/). */
const PENDING_KEY = /^pending\//;

export interface StorageCheckReport {
  storage: 'local' | 's3';
  /** stored files the rows name that were read (originals, model files) or looked up (the rest) */
  files: number;
  /** bytes read and hashed */
  bytes: number;
  /** keys listed in storage */
  listed: number;
  missing: number;
  corrupt: number;
  untracked: number;
  /** the first `maxProblems` problems found */
  problems: StorageProblem[];
}

export interface StorageCheckOptions {
  /** stored files younger than this are not judged untracked (an upload may be between its file and its row) */
  graceMs: number;
  /** problems kept in the report (all are counted) */
  maxProblems: number;
  /** called after each page with the report so far (the scheduled check's heartbeat) */
  onProgress?: (report: StorageCheckReport) => Promise<void> | void;
  /** called with every problem as it is found (the command prints them as they come) */
  onProblem?: (problem: StorageProblem) => void;
  /** stops the check between pages (a server shutting down) */
  signal?: AbortSignal;
  now?: number;
}

/**
 * Reads every stored file against the row that names it, and every stored file for a row that names it
 * (issue 26, point 6). Rows to files: an image's original must be there with the bytes of its `sha256` and
 * `size` (originals are content-addressed: the one stored hash), its thumbnail, a result's files, a label's PNG
 * and a model's files must be there, a model file with the size written with it. Files to rows: a file no row
 * names is untracked, except the files of running tasks and of trainings in progress, refused uploads waiting
 * for the user's choice (`pending/`, swept by their owner) and files younger than `graceMs`. Originals are
 * streamed through the hash, never read whole. A missing or corrupt file is reported only if its row still
 * names it when the problem is found (a delete may have removed both meanwhile). Reads every table through
 * its owner's repository.
 */
export async function checkStorage(
  deps: { db: Db; storage: BlobStorage },
  options: StorageCheckOptions,
): Promise<StorageCheckReport> {
  const { db, storage } = deps;
  const report: StorageCheckReport = {
    storage: storage.kind,
    files: 0,
    bytes: 0,
    listed: 0,
    missing: 0,
    corrupt: 0,
    untracked: 0,
    problems: [],
  };
  const images = new ImagesRepository(db.kysely, db.dialect);
  const results = new ResultsRepository(db.kysely);
  const labels = new LabelsRepository(db.kysely);
  const models = new ModelsRepository(db.kysely);
  const tasks = new TasksRepository(db.kysely);
  const referenced = (keys: string[]) => referencedKeys({ images, results, labels, models, tasks }, keys);

  const found = async (problem: StorageProblem) => {
    // A delete between reading the row and reading the file removes both: not a problem.
    if (problem.kind !== 'untracked' && !(await referenced([problem.key])).has(problem.key)) return;
    report[problem.kind]++;
    if (report.problems.length < options.maxProblems) report.problems.push(problem);
    options.onProblem?.(problem);
  };
  const stopIfAsked = () => {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('the storage check was stopped');
  };
  const step = async () => {
    stopIfAsked();
    await options.onProgress?.(report);
  };
  /** `forEachLimit` that stops before the next file once the check is asked to stop (a server shutting down). */
  const each = <T>(items: T[], fn: (item: T) => Promise<void>) =>
    forEachLimit(items, CONCURRENCY, async (item) => {
      stopIfAsked();
      await fn(item);
    });

  // Originals (hashed, each stored key once however many images share it) and thumbnails.
  const hashed = new Set<string>();
  for (let after = 0; ;) {
    const page = await images.storedFilesPage(after, PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    await each(page, async (img) => {
      const named = { id: img.id, name: img.name };
      if (!hashed.has(img.blob_key)) {
        hashed.add(img.blob_key);
        report.files++;
        const read = await hashStored(storage, img.blob_key, options.signal);
        if (!read) await found({ kind: 'missing', key: img.blob_key, file: 'original', ...named });
        else {
          report.bytes += read.size;
          if (read.sha256 !== img.sha256 || read.size !== img.size)
            await found({
              kind: 'corrupt',
              key: img.blob_key,
              file: 'original',
              ...named,
              expected: { sha256: img.sha256, size: img.size },
              actual: read,
            });
        }
      }
      if (!hashed.has(img.thumb_key)) {
        hashed.add(img.thumb_key);
        report.files++;
        if (!(await storage.exists(img.thumb_key)))
          await found({ kind: 'missing', key: img.thumb_key, file: 'thumbnail', ...named });
      }
    });
    await step();
  }
  hashed.clear();

  // Result files (overviews, cuts, predictions, reviewers' added specimens).
  for (let after = 0; ;) {
    const page = await results.storedFilesPage(after, PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    const keys = page.flatMap((r) => r.keys.map((key) => ({ key, id: r.id, name: r.image_name })));
    await each(keys, async ({ key, id, name }) => {
      report.files++;
      if (!(await storage.exists(key))) await found({ kind: 'missing', key, file: 'result', id, name });
    });
    await step();
  }

  // Label images.
  for (let after = 0; ;) {
    const page = await labels.storedFilesPage(after, PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]!.image_id;
    await each(page, async (l) => {
      report.files++;
      if (!(await storage.exists(l.blob_key)))
        await found({ kind: 'missing', key: l.blob_key, file: 'label', id: l.image_id, name: null });
    });
    await step();
  }

  // Lab models' files: the portable file has the size written with its row.
  for (const m of await models.storedFiles()) {
    await each(m.files, async (f) => {
      report.files++;
      const obj = await storage.get(f.key);
      obj?.stream.destroy();
      const named = { file: 'model' as const, id: m.id, name: m.name };
      if (!obj) await found({ kind: 'missing', key: f.key, ...named });
      else if (f.size !== null && obj.size !== f.size)
        await found({
          kind: 'corrupt',
          key: f.key,
          ...named,
          expected: { sha256: null, size: f.size },
          actual: { sha256: null, size: obj.size },
        });
    });
  }
  await step();

  // Stored files no row names.
  const now = options.now ?? Date.now();
  const entries = storage.listWithTimes ? storage.listWithTimes('') : withoutTimes(storage.list(''));
  let batch: string[] = [];
  const judge = async () => {
    const named = await referenced(batch);
    for (const key of batch) {
      if (!named.has(key)) await found({ kind: 'untracked', key, file: fileOf(key), id: null, name: null });
    }
    batch = [];
    await step();
  };
  for await (const { key, modified } of entries) {
    report.listed++;
    if (PENDING_KEY.test(key)) continue;
    if (options.graceMs > 0 && (modified === undefined || modified > now - options.graceMs)) continue;
    batch.push(key);
    if (batch.length >= PAGE) await judge();
  }
  if (batch.length > 0) await judge();
  return report;
}

/** What a stored key is, from its shape (for the report of an untracked file). */
function fileOf(key: string): StorageProblemFile {
  if (key.startsWith('originals/')) return 'original';
  if (key.startsWith('thumbs/')) return 'thumbnail';
  if (resultKeyOwner(key)) return 'result';
  if (LABEL_KEY.test(key)) return 'label';
  if (MODEL_KEY.test(key)) return 'model';
  return 'other';
}

/**
 * Of `keys`, those a row names, or that belong to work in progress (a running task's result files, a training
 * model's files): those are never judged untracked. Keys of any other shape are named by nothing.
 */
async function referencedKeys(
  repos: {
    images: ImagesRepository;
    results: ResultsRepository;
    labels: LabelsRepository;
    models: ModelsRepository;
    tasks: TasksRepository;
  },
  keys: string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  const content = keys.filter((k) => CONTENT_KEY.test(k));
  if (content.length > 0) {
    const named = await repos.images.storedKeysOfSha256([...new Set(content.map((k) => CONTENT_KEY.exec(k)![1]!))]);
    for (const k of content) if (named.has(k)) out.add(k);
  }

  const resultKeys = keys.filter((k) => resultKeyOwner(k));
  if (resultKeys.length > 0) {
    const pairs = resultKeys.map((k) => resultKeyOwner(k)!);
    const running = await repos.tasks.runningAmong([...new Set(pairs.map((p) => p.taskId))]);
    const named = await repos.results.fileKeysOfPairs(pairs.filter((p) => !running.has(p.taskId)));
    resultKeys.forEach((k, i) => {
      if (running.has(pairs[i]!.taskId) || named.has(k)) out.add(k);
    });
  }

  const labelKeys = keys.filter((k) => LABEL_KEY.test(k));
  for (const k of await repos.labels.existingKeys(labelKeys)) out.add(k);

  const modelKeys = keys.filter((k) => MODEL_KEY.test(k));
  if (modelKeys.length > 0) {
    const all = await repos.models.storedFiles();
    const training = new Set(all.filter((m) => m.status === 'training').map((m) => m.id));
    const named = new Set(all.flatMap((m) => m.files.map((f) => f.key)));
    for (const k of modelKeys) if (named.has(k) || training.has(Number(MODEL_KEY.exec(k)![1]))) out.add(k);
  }
  return out;
}

/** Streams a stored file through SHA-256; null when it is not there. */
async function hashStored(
  storage: BlobStorage,
  key: string,
  signal: AbortSignal | undefined,
): Promise<{ sha256: string; size: number } | null> {
  const obj = await storage.get(key);
  if (!obj) return null;
  const hash = crypto.createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of obj.stream) {
      // A large original on a slow disk must not hold a shutdown up: stop between chunks.
      if (signal?.aborted) throw signal.reason ?? new Error('the storage check was stopped');
      const bytes = chunk as Buffer;
      size += bytes.length;
      hash.update(bytes);
    }
  } finally {
    obj.stream.destroy();
  }
  return { sha256: hash.digest('hex'), size };
}

async function* withoutTimes(
  keys: AsyncIterable<string>,
): AsyncIterable<{ key: string; modified: number | undefined }> {
  for await (const key of keys) yield { key, modified: undefined };
}
