import type { StorageCheck, StorageCheckSummary, StorageProblem } from '@cassavascope/contract';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { checkStorage, type StorageCheckReport } from './check-storage.js';
import {
  StorageChecksRepository,
  type StorageCheckRow,
  type StorageCheckTrigger,
} from './storage-checks.repository.js';

/** Problems kept with the last result (all are counted). */
export const STORED_PROBLEMS = 100;
/** A running check moves its heartbeat this often... */
const HEARTBEAT_MS = 30_000;
/** ...so a claim whose heartbeat is older than this is a dead process's, and another may run. */
const STALE_MS = 5 * 60_000;
/** The schedule looks at the row at least this often (a cheap statement; the interval decides whether to run). */
const MAX_TICK_MS = 5 * 60_000;

export interface StorageCheckDeps {
  db: Db;
  storage: BlobStorage;
  log: Logger;
}

export interface StorageCheckSettings {
  /** between scheduled checks; 0 = no schedule */
  intervalMs: number;
  /** stored files younger than this are not judged untracked */
  graceMs: number;
}

export interface RunOptions {
  /** problems kept in the returned report (at least STORED_PROBLEMS) */
  maxProblems?: number;
  onProblem?: (p: StorageProblem) => void;
  /** instead of the configured grace */
  graceMs?: number;
  /** when another check holds the row: check anyway without recording (the command), or do nothing */
  whenBusy?: 'run' | 'skip';
}

export interface RecordedCheck {
  report: StorageCheckReport;
  /** false when another check held the row, so this result was not stored */
  recorded: boolean;
  /** why the check could not finish (the report holds what it found until then) */
  error: Error | null;
}

/**
 * Runs the storage check and records its result in `storage_checks`: on a schedule (every API process looks
 * every few minutes; the one that claims the row runs it, so one check per interval over all processes), at an
 * admin's request and from `npm run check-storage`.
 */
export class StorageChecks {
  private readonly repo: StorageChecksRepository;
  private timer: NodeJS.Timeout | null = null;
  private current: { done: Promise<unknown>; abort: AbortController } | null = null;
  private closed = false;

  constructor(
    private readonly deps: StorageCheckDeps,
    private readonly settings: StorageCheckSettings,
  ) {
    this.repo = new StorageChecksRepository(deps.db.kysely);
  }

  /** Starts the schedule (nothing when the interval is 0). */
  startSchedule(): void {
    if (this.settings.intervalMs <= 0 || this.timer) return;
    const tick = Math.max(1000, Math.min(this.settings.intervalMs, MAX_TICK_MS));
    this.timer = setInterval(() => void this.scheduledTick(), tick);
    this.timer.unref();
  }

  private async scheduledTick(): Promise<void> {
    if (this.current || this.closed) return;
    try {
      const now = Date.now();
      const due = new Date(now - this.settings.intervalMs).toISOString();
      await this.runIfClaimed('schedule', due);
    } catch (err) {
      this.deps.log.warn({ err }, 'the scheduled storage check could not start; it is tried again later');
    }
  }

  /**
   * Starts a check now in the background (an admin's "check now"). False when a check is running already
   * (in any process).
   */
  async startNow(): Promise<boolean> {
    if (this.current || this.closed) return false;
    const started = this.claimAndRun('manual', null, {});
    const { claimed } = await started.claimed;
    // Failures are recorded with the result and logged; nothing waits for it here.
    void started.finished.catch(() => undefined);
    return claimed;
  }

  private async runIfClaimed(trigger: StorageCheckTrigger, startedBefore: string | null): Promise<void> {
    const started = this.claimAndRun(trigger, startedBefore, {});
    await started.finished;
  }

  /**
   * Claims the row and, when won, runs the check and records it. `claimed` resolves once the claim is decided;
   * `finished` once the check is recorded (null when the claim was lost).
   */
  claimAndRun(
    trigger: StorageCheckTrigger,
    startedBefore: string | null,
    options: RunOptions,
  ): { claimed: Promise<{ claimed: boolean }>; finished: Promise<RecordedCheck | null> } {
    const abort = new AbortController();
    let decided: (v: { claimed: boolean }) => void = () => undefined;
    const claimed = new Promise<{ claimed: boolean }>((resolve) => (decided = resolve));
    const finished = (async () => {
      const startedAt = new Date().toISOString();
      const stale = new Date(Date.now() - STALE_MS).toISOString();
      let won: boolean;
      try {
        won = await this.repo.claim(trigger, startedAt, stale, startedBefore);
      } catch (err) {
        decided({ claimed: false });
        throw err;
      }
      decided({ claimed: won });
      if (won) return this.runClaimed(trigger, startedAt, abort.signal, options);
      if (options.whenBusy !== 'run') return null;
      let latest: StorageCheckReport | null = null;
      try {
        const report = await checkStorage(this.deps, {
          graceMs: options.graceMs ?? this.settings.graceMs,
          maxProblems: Math.max(STORED_PROBLEMS, options.maxProblems ?? 0),
          signal: abort.signal,
          onProgress: (r) => void (latest = r),
          ...(options.onProblem ? { onProblem: options.onProblem } : {}),
        });
        return { report, recorded: false, error: null };
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        return { report: latest ?? emptyReport(this.deps.storage), recorded: false, error };
      }
    })();
    const tracked = finished.finally(() => {
      if (this.current?.done === tracked) this.current = null;
    });
    this.current = { done: tracked, abort };
    return { claimed, finished: tracked };
  }

  /** Runs the check for a claim won at `startedAt` and records what it found (also when it fails part way). */
  private async runClaimed(
    trigger: StorageCheckTrigger,
    startedAt: string,
    signal: AbortSignal,
    options: RunOptions,
  ): Promise<RecordedCheck> {
    const log = this.deps.log;
    let latest: StorageCheckReport | null = null;
    let stillOurs = true;
    log.info({ trigger }, 'storage check started');
    // The heartbeat runs on its own clock: one page of large originals may take longer than STALE_MS to read.
    const beat = setInterval(() => {
      this.repo
        .heartbeat(startedAt, new Date().toISOString())
        .then((ours) => (stillOurs &&= ours))
        .catch((err: unknown) => log.warn({ err }, 'the storage check could not record its heartbeat'));
    }, HEARTBEAT_MS);
    beat.unref();
    try {
      const report = await checkStorage(this.deps, {
        graceMs: options.graceMs ?? this.settings.graceMs,
        maxProblems: Math.max(STORED_PROBLEMS, options.maxProblems ?? 0),
        signal,
        ...(options.onProblem ? { onProblem: options.onProblem } : {}),
        onProgress: (r) => void (latest = r),
      });
      await this.repo.finish(startedAt, new Date().toISOString(), resultOf(trigger, report, null));
      const level = report.missing + report.corrupt + report.untracked > 0 ? 'warn' : 'info';
      log[level](
        {
          files: report.files,
          bytes: report.bytes,
          missing: report.missing,
          corrupt: report.corrupt,
          untracked: report.untracked,
        },
        'storage check finished',
      );
      return { report, recorded: stillOurs, error: null };
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const report: StorageCheckReport = latest ?? emptyReport(this.deps.storage);
      if (signal.aborted) {
        await this.repo.release(startedAt).catch(() => undefined);
        return { report, recorded: false, error };
      }
      log.error({ err }, 'the storage check could not finish');
      await this.repo
        .finish(startedAt, new Date().toISOString(), resultOf(trigger, report, error.message))
        .catch((e: unknown) => log.warn({ err: e }, 'the storage check result could not be stored'));
      return { report, recorded: stillOurs, error };
    } finally {
      clearInterval(beat);
    }
  }

  /** `GET /storage-check/`: the last check with its first problems and the run in progress. */
  async details(): Promise<StorageCheck> {
    const row = await this.repo.get();
    return {
      ...summaryOf(row, Date.now()),
      started_at: row?.started_at ?? null,
      trigger: (row?.trigger as StorageCheck['trigger'] | null | undefined) ?? null,
      bytes: row?.finished_at ? Number(row.bytes) : 0,
      problems: row?.finished_at ? parseProblems(row.problems) : [],
      interval_hours: this.settings.intervalMs / 3_600_000,
    };
  }

  /** Stops the schedule and a check running in this process (its claim is released; nothing is recorded). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const running = this.current;
    if (running) {
      running.abort.abort(new Error('the server is stopping'));
      await running.done.catch(() => undefined);
    }
  }
}

/** `GET /status/`'s `storage_check`: the last finished check and whether one runs now. */
export async function lastStorageCheck(db: Db): Promise<StorageCheckSummary> {
  return summaryOf(await new StorageChecksRepository(db.kysely).get(), Date.now());
}

function resultOf(trigger: StorageCheckTrigger, report: StorageCheckReport, errorMessage: string | null) {
  return {
    trigger,
    files: report.files,
    bytes: report.bytes,
    missing: report.missing,
    corrupt: report.corrupt,
    untracked: report.untracked,
    problems: JSON.stringify(report.problems.slice(0, STORED_PROBLEMS)),
    errorMessage,
  };
}

function emptyReport(storage: BlobStorage): StorageCheckReport {
  return { storage: storage.kind, files: 0, bytes: 0, listed: 0, missing: 0, corrupt: 0, untracked: 0, problems: [] };
}

function summaryOf(row: StorageCheckRow | undefined, now: number): StorageCheckSummary {
  const done = row?.finished_at ?? null;
  return {
    checked_at: done,
    missing: done ? row!.missing : 0,
    corrupt: done ? row!.corrupt : 0,
    untracked: done ? row!.untracked : 0,
    files: done ? row!.files : 0,
    running: row !== undefined && row.running === 1 && Date.parse(row.heartbeat_at) > now - STALE_MS,
    error: done ? row!.error_message : null,
  };
}

function parseProblems(json: string): StorageProblem[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as StorageProblem[]) : [];
  } catch {
    return [];
  }
}
