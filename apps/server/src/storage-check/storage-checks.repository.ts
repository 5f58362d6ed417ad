import type { Kysely, Selectable } from 'kysely';
import type { Database, StorageChecksTable } from '../db/schema.js';

export type StorageCheckRow = Selectable<StorageChecksTable>;
export type StorageCheckTrigger = 'schedule' | 'manual' | 'command';

type Db = Kysely<Database>;
const ID = 1;

/** What a finished (or failed) check leaves in the row. */
export interface FinishedCheck {
  trigger: StorageCheckTrigger;
  files: number;
  bytes: number;
  missing: number;
  corrupt: number;
  untracked: number;
  /** JSON text of the capped problem list */
  problems: string;
  errorMessage: string | null;
}

/**
 * The one owner of `storage_checks` (migration 0019): its single row holds the run in progress and the last
 * finished check. A run starts by claiming the row in one statement (an insert, or an update whose condition
 * the database evaluates on the current row), so two processes never both win.
 */
export class StorageChecksRepository {
  constructor(private readonly db: Db) {}

  async get(): Promise<StorageCheckRow | undefined> {
    return this.db.selectFrom('storage_checks').selectAll().where('id', '=', ID).executeTakeFirst();
  }

  /**
   * Claims the row for a run started now: only if no live run holds it (one whose heartbeat is newer than
   * `staleBefore`) and, for a scheduled run, the last run started at or before `startedBefore`. True when won.
   */
  async claim(
    trigger: StorageCheckTrigger,
    now: string,
    staleBefore: string,
    startedBefore: string | null,
  ): Promise<boolean> {
    const won = await this.db
      .insertInto('storage_checks')
      .values({ id: ID, running: 1, run_trigger: trigger, started_at: now, heartbeat_at: now })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ running: 1, run_trigger: trigger, started_at: now, heartbeat_at: now })
          .where((eb) => {
            const free = eb.or([
              eb('storage_checks.running', '=', 0),
              eb('storage_checks.heartbeat_at', '<', staleBefore),
            ]);
            return startedBefore === null ? free : eb.and([free, eb('storage_checks.started_at', '<=', startedBefore)]);
          }),
      )
      .returning('id')
      .executeTakeFirst();
    return won !== undefined;
  }

  /** The run that started at `startedAt` is alive (false when another run has taken the row since). */
  async heartbeat(startedAt: string, now: string): Promise<boolean> {
    const res = await this.db
      .updateTable('storage_checks')
      .set({ heartbeat_at: now })
      .where('id', '=', ID)
      .where('running', '=', 1)
      .where('started_at', '=', startedAt)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** The run that started at `startedAt` ends with its result (nothing changes when another run took the row). */
  async finish(startedAt: string, now: string, result: FinishedCheck): Promise<void> {
    await this.db
      .updateTable('storage_checks')
      .set({
        running: 0,
        heartbeat_at: now,
        finished_at: now,
        trigger: result.trigger,
        files: result.files,
        bytes: result.bytes,
        missing: result.missing,
        corrupt: result.corrupt,
        untracked: result.untracked,
        problems: result.problems,
        error_message: result.errorMessage,
      })
      .where('id', '=', ID)
      .where('started_at', '=', startedAt)
      .execute();
  }

  /** The run that started at `startedAt` stopped without a result (a shutdown): the row is free again. */
  async release(startedAt: string): Promise<void> {
    await this.db
      .updateTable('storage_checks')
      .set({ running: 0 })
      .where('id', '=', ID)
      .where('started_at', '=', startedAt)
      .execute();
  }
}
