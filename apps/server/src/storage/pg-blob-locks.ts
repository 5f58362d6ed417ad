import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from 'pino';
import type { SharedBlobLocks } from './blob-guard.js';

/** How long a claim waits for other processes' deleters of its keys (each holds them for one check and delete). */
const HOLD_WAIT_MS = 60_000;
const RETRY_MS = 10;

/**
 * A key's PostgreSQL advisory lock id: 48 bits of its sha256 (a JS number, exact). Two keys sharing an id
 * only make a deleter skip a key another process holds: an orphan the sweep removes later.
 */
function lockId(key: string): number {
  return Number.parseInt(crypto.createHash('sha256').update(key).digest('hex').slice(0, 12), 16);
}

interface Held {
  count: number;
  /** the session that took the lock, once taken */
  session: pg.Client | null;
  taken: Promise<void>;
}

/**
 * BlobGuard across the API processes of one PostgreSQL installation, with advisory locks: writers hold a
 * shared lock per key on one session of this process (taken once per key however many claims), deleters take
 * exclusive locks on a short-lived session for their check and delete. Both only ever try (never wait inside
 * PostgreSQL), so no two processes can deadlock: a writer tries again until the deleter is done, a deleter
 * skips what a writer holds (the writer's row will refer to it, or the orphan sweep removes it later).
 * A lost connection (a database restart) drops the session's locks: the next claim opens a new session and
 * takes the locks still held again.
 */
export class PgBlobLocks implements SharedBlobLocks {
  private session: pg.Client | null = null;
  /** the session's statements, one at a time and in the order issued (pg 9 refuses overlapping queries) */
  private lane: Promise<unknown> = Promise.resolve();
  private opening: Promise<pg.Client> | null = null;
  private readonly held = new Map<string, Held>();
  /** unlocks queued by `drop` and not yet done: a delete of those keys waits for them (see tryDelete) */
  private readonly unlocking = new Map<string, Promise<unknown>>();
  private readonly deleters: pg.Pool;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {
    this.deleters = new pg.Pool({ connectionString: url, max: 2 });
    // An idle pooled session ended by the server (a restart): the pool drops it; without a listener Node exits.
    this.deleters.on('error', (err) => log.warn({ err }, 'a blob lock session was closed by the database'));
    // ... and while checked out (see db/postgres.ts): the session is dropped at its release.
    this.deleters.on('connect', (client) =>
      client.on('error', (err) => log.warn({ err }, 'a blob lock session was closed by the database')),
    );
  }

  async hold(keys: string[]): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const key of new Set(keys)) {
      let entry = this.held.get(key);
      if (!entry) {
        const created: Held = { count: 0, session: null, taken: Promise.resolve() };
        created.taken = this.take(key, created);
        entry = created;
        this.held.set(key, entry);
      }
      entry.count++;
      waits.push(entry.taken);
    }
    await Promise.all(waits);
  }

  drop(keys: string[]): void {
    for (const key of new Set(keys)) {
      const entry = this.held.get(key);
      if (!entry) continue;
      if (--entry.count > 0) continue;
      this.held.delete(key);
      // Synchronous: queued on the session before any later take of the same key.
      if (entry.session && entry.session === this.session) {
        const unlock = this.inLane(entry.session, 'SELECT pg_advisory_unlock_shared($1::bigint) AS ok', lockId(key))
          .catch((err: unknown) => this.log.warn({ err }, 'could not release a blob lock'))
          .finally(() => {
            if (this.unlocking.get(key) === unlock) this.unlocking.delete(key);
          });
        this.unlocking.set(key, unlock);
      }
    }
  }

  async tryDelete<T>(keys: string[], remove: (keys: string[]) => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    // A key this process just released is still locked until its unlock reaches the database: without waiting,
    // a writer's own cleanup of a failed write would find its key held and leave the file behind.
    await Promise.all(unique.map((k) => this.unlocking.get(k)).filter((p) => p !== undefined));
    const client = await this.deleters.connect();
    let got: string[] = [];
    let broken: Error | undefined;
    try {
      const ids = unique.map(lockId);
      const { rows } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(k) AS ok FROM unnest($1::bigint[]) WITH ORDINALITY AS t(k, i) ORDER BY i',
        [ids],
      );
      got = unique.filter((_, i) => rows[i]?.ok === true);
      return await remove(got);
    } finally {
      if (got.length > 0) {
        await client
          .query('SELECT pg_advisory_unlock(k) FROM unnest($1::bigint[]) AS t(k)', [got.map(lockId)])
          .catch((err: Error) => (broken = err));
      }
      // A session whose unlock failed is not reused (its locks die with it).
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = null;
    await session?.end().catch(() => undefined);
    await this.deleters.end();
  }

  /** Takes `key`'s shared lock on this process's session, trying again while a deleter holds it. */
  private async take(key: string, entry: Held): Promise<void> {
    const deadline = Date.now() + HOLD_WAIT_MS;
    for (;;) {
      const session = await this.open();
      if (await this.inLane(session, 'SELECT pg_try_advisory_lock_shared($1::bigint) AS ok', lockId(key))) {
        entry.session = session;
        return;
      }
      if (Date.now() > deadline) throw new Error(`blob ${key} stayed locked by a delete for ${HOLD_WAIT_MS} ms`);
      await sleep(RETRY_MS);
    }
  }

  /** Queues a one-lock statement on `session` (synchronously: its place in the lane is taken at the call). */
  private inLane(session: pg.Client, text: string, id: number): Promise<boolean> {
    const run = this.lane.then(() => session.query<{ ok: boolean }>(text, [id]));
    this.lane = run.catch(() => undefined);
    return run.then((r) => r.rows[0]?.ok === true);
  }

  private async open(): Promise<pg.Client> {
    if (this.session) return this.session;
    if (this.closed) throw new Error('blob locks closed');
    this.opening ??= (async () => {
      const session = new pg.Client({ connectionString: this.url });
      const lost = (err?: Error) => {
        if (this.session !== session) return;
        this.session = null;
        this.log.warn({ err }, 'the blob lock session was lost; held keys are locked again on a new one');
        // The locks went with the session: take the ones still claimed again on the next session.
        for (const [key, entry] of this.held) {
          entry.session = null;
          this.take(key, entry).catch((e: unknown) => this.log.warn({ err: e }, 'could not lock a blob again'));
        }
      };
      session.on('error', lost);
      session.on('end', () => lost());
      await session.connect();
      this.session = session;
      return session;
    })().finally(() => (this.opening = null));
    return this.opening;
  }
}
