import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ImagesRepository } from '../images/images.repository.js';
import { ResultsRepository, type ResultRecord } from '../predictions/results.repository.js';
import { TaskState } from '../tasks/task-state.js';

/** `stored`: row written and counted; `duplicate`: the image already had a row; `discarded`: task not running. */
export type RecordOutcome =
  { kind: 'stored'; id: number; imageDeleted: boolean } | { kind: 'duplicate' } | { kind: 'discarded' };

class DuplicateRow extends Error {}

/**
 * Stores one image's outcome in one transaction: the task's counters (the task state, which also says
 * whether the task still runs), the result row and the image's newest-result columns (the results' owner),
 * and the task's completion when this was its last image. Nothing is written unless the task is still
 * running. An outcome for an image deleted meanwhile is stored as an `image_deleted` failure instead (the
 * caller then removes any files it wrote).
 */
export async function recordOutcome(db: Kysely<Database>, rec: ResultRecord): Promise<RecordOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      const imageExists = (await new ImagesRepository(trx).getById(rec.imageId)) !== undefined;
      // An image gone by now is reported as deleted, whatever the attempt to score it ran into.
      const r: ResultRecord =
        imageExists || rec.errorCode === 'image_deleted'
          ? rec
          : {
              ...rec,
              ppdValue: null,
              subPpdValues: [],
              prediction: null,
              confidence: null,
              ossKey: null,
              visKeys: {},
              specimens: [],
              needsReview: false,
              errorCode: 'image_deleted',
              errorMessage: 'The image was deleted while the task was running',
            };
      const failed = r.errorCode !== null;
      const now = new Date().toISOString();
      const counted = await TaskState.countOutcome(
        trx,
        r.taskId,
        {
          failed,
          refused: TaskState.isRefusal(r.errorCode),
          scored: !failed && r.ppdValue !== null,
          ppd: r.ppdValue,
          confidence: r.confidence,
          processingTime: r.processingTime,
        },
        now,
      );
      if (!counted) return { kind: 'discarded' } as const;
      const id = await new ResultsRepository(trx).insertOutcome(r, imageExists, now);
      // Another worker stored this image first: roll the counters back with the transaction.
      if (id === null) throw new DuplicateRow();
      await finishIfComplete(trx, r.taskId, now);
      return { kind: 'stored', id, imageDeleted: !imageExists } as const;
    });
  } catch (err) {
    if (err instanceof DuplicateRow) return { kind: 'duplicate' };
    throw err;
  }
}

/**
 * The one place that decides a task is finished (TaskState holds the rule): after each stored outcome, in its
 * transaction; at the end of a job (a job whose images all had results already); and at start-up for a task
 * left running with every image answered (job-runner `recoverStranded`).
 */
export async function finishIfComplete(db: Kysely<Database>, taskId: number, now?: string): Promise<void> {
  await TaskState.finishIfComplete(db, taskId, now);
}
