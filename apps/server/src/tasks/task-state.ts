import { DISEASE_FROM, REFUSAL_CODES } from '@cassavascope/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** What one image's outcome adds to its task's counters. */
export interface OutcomeCount {
  failed: boolean;
  /** the failure is the engine's refusal (an outcome: api.md, Tasks); counted in failed too */
  refused?: boolean | undefined;
  /** the image got a PPD */
  scored: boolean;
  ppd: number | null;
  confidence: number | null;
  processingTime: number | null;
}

/**
 * The one writer of a task's status and counters (`status`, `processed_count`, `failed_count`,
 * `refused_count`, `scored_count`, `healthy_count`, `disease_count`, `confidence_sum`, `processing_time_sum`,
 * `error_message`, `completed_at`, `engine_label`). Every method takes the database or the caller's
 * transaction, so a change of status or counters commits with the rows it belongs to. Counters only grow
 * by atomic SQL increments (several workers may share a task); the status only leaves `running` once,
 * by a conditional update, so one of two racing writers wins and the other changes nothing.
 */
export const TaskState = {
  /** The state of a task just created: running, nothing counted. */
  initial(now: string) {
    return { status: 'running', error_message: null, completed_at: null, updated_at: now } as const;
  },

  /**
   * Counts one image's outcome. The update doubles as the "still running?" check and, in PostgreSQL, locks
   * the task row, so a concurrent cancel happens either before (false: nothing may be stored) or after.
   */
  async countOutcome(db: Db, taskId: number, o: OutcomeCount, now: string): Promise<boolean> {
    const scored = o.scored && o.ppd !== null;
    const res = await db
      .updateTable('tasks')
      .set((eb) => ({
        processed_count: eb('processed_count', '+', 1),
        failed_count: eb('failed_count', '+', o.failed ? 1 : 0),
        refused_count: eb('refused_count', '+', o.failed && o.refused ? 1 : 0),
        scored_count: eb('scored_count', '+', scored ? 1 : 0),
        healthy_count: eb('healthy_count', '+', scored && (o.ppd as number) < DISEASE_FROM ? 1 : 0),
        disease_count: eb('disease_count', '+', scored && (o.ppd as number) >= DISEASE_FROM ? 1 : 0),
        confidence_sum: eb('confidence_sum', '+', scored ? (o.confidence ?? 0) : 0),
        processing_time_sum: eb('processing_time_sum', '+', o.processingTime ?? 0),
        updated_at: now,
      }))
      .where('id', '=', taskId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /**
   * A reviewer moved a result's PPD from one side of the healthy/disease line to the other: the task's
   * statistics follow the reviewed values (api.md: healthy PPD < 4, disease >= 4). Atomic increments.
   */
  async moveBand(db: Db, taskId: number, from: number | null, to: number | null): Promise<void> {
    const side = (v: number | null) => (v === null ? null : v >= DISEASE_FROM ? 'disease' : 'healthy');
    const a = side(from);
    const b = side(to);
    if (a === b) return;
    const delta = (s: 'healthy' | 'disease') => (a === s ? -1 : 0) + (b === s ? 1 : 0);
    await db
      .updateTable('tasks')
      .set((eb) => ({
        healthy_count: eb('healthy_count', '+', delta('healthy')),
        disease_count: eb('disease_count', '+', delta('disease')),
      }))
      .where('id', '=', taskId)
      .execute();
  },

  /**
   * running -> completed once every image has been attempted; failed when every image failed for a reason
   * other than a refusal (a refusal is an outcome: a task of refused photos ends completed).
   */
  async finishIfComplete(db: Db, taskId: number, now = new Date().toISOString()): Promise<void> {
    const allFailed = sql`failed_count >= image_count and refused_count = 0`;
    await db
      .updateTable('tasks')
      .set({
        status: sql<string>`case when ${allFailed} then 'failed' else 'completed' end`,
        error_message: sql<
          string | null
        >`case when ${allFailed} then 'Every image failed; each result gives its error_code' else null end`,
        completed_at: now,
        updated_at: now,
      })
      .where('id', '=', taskId)
      .where('status', '=', 'running')
      .where(sql<boolean>`processed_count >= image_count`)
      .execute();
  },

  /** The task itself could not run (the engine did not start, a job kept failing): failed, with the reason. */
  async fail(db: Db, taskId: number, message: string, now = new Date().toISOString()): Promise<boolean> {
    const res = await db
      .updateTable('tasks')
      .set({ status: 'failed', error_message: message.slice(0, 1000), completed_at: now, updated_at: now })
      .where('id', '=', taskId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** running -> cancelled; false when the task was not running (only one caller wins). */
  async cancel(db: Db, taskId: number, now = new Date().toISOString()): Promise<boolean> {
    const res = await db
      .updateTable('tasks')
      .set({ status: 'cancelled', completed_at: now, updated_at: now })
      .where('id', '=', taskId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Records which engine scores the task; the first job to run writes it. */
  async noteEngineLabel(db: Db, taskId: number, label: string): Promise<void> {
    await db
      .updateTable('tasks')
      .set({ engine_label: label })
      .where('id', '=', taskId)
      .where('engine_label', 'is', null)
      .execute();
  },

  /** Whether a result's error code is the engine's refusal rather than a failure. */
  isRefusal(errorCode: string | null): boolean {
    return errorCode !== null && (REFUSAL_CODES as readonly string[]).includes(errorCode);
  },

  async status(db: Db, taskId: number): Promise<string | undefined> {
    const row = await db.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirst();
    return row?.status;
  },
};
