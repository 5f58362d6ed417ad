import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { ImagesRepository } from '../images/images.repository.js';
import { resultKeyOwner } from '../predictions/result-files.js';
import { ResultsRepository } from '../predictions/results.repository.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { guardOf } from '../storage/blob-guard.js';

const BATCH = 500;
const CONTENT_KEY = /^(?:originals|thumbs)\/[0-9a-f]{2}\/([0-9a-f]{64})\.[a-z0-9]+$/;
/** labels/<image id>/<random>.png (labels/labels.service.ts): an orphan when no label row names it */
const LABEL_KEY = /^labels\/\d{1,15}\/[0-9a-f]+\.png$/;

export interface OrphanSweepReport {
  checked: number;
  removed: number;
}

/**
 * Of `keys`, those no row refers to: an original or thumbnail whose sha256 no image has, a result file whose
 * (task, image) has no result row and whose task is not running (a running task is writing them), a label
 * file no label row names (a label write claims its key until its row commits). Keys of
 * any other shape are never judged orphans.
 */
async function unreferenced(db: Db, keys: string[]): Promise<string[]> {
  const shas = new Set<string>();
  const taskIds = new Set<number>();
  const imageIds = new Set<number>();
  for (const k of keys) {
    const content = CONTENT_KEY.exec(k);
    const result = resultKeyOwner(k);
    if (content) shas.add(content[1]!);
    else if (result) {
      taskIds.add(result.taskId);
      imageIds.add(result.imageId);
    }
  }
  // Read from each table's owner (docs/architecture.md): images by content, tasks by status, results by pair.
  const usedShas = await new ImagesRepository(db.kysely, db.dialect).existingSha256([...shas]);
  const running = await new TasksRepository(db.kysely).runningAmong([...taskIds]);
  const results = await new ResultsRepository(db.kysely).resultPairs([...taskIds], [...imageIds]);
  const labels = await new LabelsRepository(db.kysely).existingKeys(keys.filter((k) => LABEL_KEY.test(k)));
  return keys.filter((k) => {
    const content = CONTENT_KEY.exec(k);
    if (content) return !usedShas.has(content[1]!);
    if (LABEL_KEY.test(k)) return !labels.has(k);
    const result = resultKeyOwner(k);
    if (!result) return false;
    return !running.has(result.taskId) && !results.has(`${result.taskId}/${result.imageId}`);
  });
}

/**
 * Finds and removes stored blobs no row refers to (issue 13: a crash during a folder delete or during the
 * move into storage left 596 files, 496 MB, for good). Safe against this process's writers: keys an upload
 * has claimed are skipped, and each batch is checked against the database a second time while its keys are
 * held for deletion. Files newer than `graceMs` are left alone: with PostgreSQL another API process may be
 * between putting a file and committing its row.
 */
export async function sweepOrphanBlobs(
  deps: { db: Db; storage: BlobStorage; log: Logger },
  graceMs: number,
  now = Date.now(),
): Promise<OrphanSweepReport> {
  const { db, storage } = deps;
  const guard = guardOf(storage);
  const report: OrphanSweepReport = { checked: 0, removed: 0 };
  const flush = async (keys: string[]) => {
    report.checked += keys.length;
    const candidates = await unreferenced(db, keys);
    if (candidates.length === 0) return;
    await guard.deleteUnclaimed(candidates, async (held) => {
      const doomed = held.length > 0 ? await unreferenced(db, held) : [];
      if (doomed.length > 0) await storage.delete(doomed);
      report.removed += doomed.length;
    });
  };
  let batch: string[] = [];
  const entries = graceMs > 0 && storage.listWithTimes ? storage.listWithTimes('') : timeless(storage.list(''));
  for await (const { key, modified } of entries) {
    if (graceMs > 0 && (modified === undefined || modified > now - graceMs)) continue;
    batch.push(key);
    if (batch.length >= BATCH) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await flush(batch);
  if (report.removed > 0)
    deps.log.info(report, 'removed stored files no row refers to (left by an interrupted delete or upload)');
  return report;
}

async function* timeless(keys: AsyncIterable<string>): AsyncIterable<{ key: string; modified: number | undefined }> {
  for await (const key of keys) yield { key, modified: undefined };
}
