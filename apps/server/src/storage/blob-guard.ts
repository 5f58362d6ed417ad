import type { BlobStorage } from './blob-storage.js';

/**
 * The same guard across processes (PostgreSQL: every API process of one installation shares the blobs):
 * `hold` keeps keys from other processes' deleters until `drop`; `tryDelete` runs `remove` with the keys no
 * other process holds, kept from other processes' holders meanwhile (storage/pg-blob-locks.ts).
 */
export interface SharedBlobLocks {
  hold(keys: string[]): Promise<void>;
  drop(keys: string[]): void;
  tryDelete<T>(keys: string[], remove: (keys: string[]) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Keeps every deleter of content-addressed blobs (the orphan sweep, image and folder deletes, storage/
 * blob-removal.ts) and the writers apart. A writer (an upload) claims the keys it is about to put in place or
 * reuse, and releases them once its rows are committed; a deleter never deletes a claimed key, and a claim
 * made while a deleter removes that key waits for the delete to finish (the writer then finds the key gone
 * and puts its own bytes). Deleters check the rows again while they hold the keys. In one process both steps
 * are synchronous in the one JS thread, so no claim slips between a deleter's check and its delete; with
 * `shareAcrossProcesses` the same holds between processes.
 */
export class BlobGuard {
  private readonly claims = new Map<string, number>();
  private readonly deleting = new Map<string, Promise<void>>();
  private shared: SharedBlobLocks | null = null;

  /** From now on claims and deletes also keep out other processes (once, at start). */
  shareAcrossProcesses(locks: SharedBlobLocks): void {
    this.shared = locks;
  }

  async close(): Promise<void> {
    await this.shared?.close();
    this.shared = null;
  }

  async claim(keys: string[]): Promise<void> {
    for (;;) {
      const busy = keys.map((k) => this.deleting.get(k)).filter((p): p is Promise<void> => p !== undefined);
      if (busy.length === 0) break;
      await Promise.all(busy);
    }
    for (const k of keys) this.claims.set(k, (this.claims.get(k) ?? 0) + 1);
    if (!this.shared) return;
    try {
      await this.shared.hold(keys);
    } catch (err) {
      this.release(keys);
      throw err;
    }
  }

  release(keys: string[]): void {
    for (const k of keys) {
      const n = (this.claims.get(k) ?? 0) - 1;
      if (n <= 0) this.claims.delete(k);
      else this.claims.set(k, n);
    }
    this.shared?.drop(keys);
  }

  /**
   * Takes the unclaimed keys of `candidates` for deletion (claims on them now wait), runs `remove` with
   * them, then lets waiting claims go on. Returns what `remove` returned.
   */
  async deleteUnclaimed<T>(candidates: string[], remove: (keys: string[]) => Promise<T>): Promise<T> {
    const keys = candidates.filter((k) => !this.claims.has(k) && !this.deleting.has(k));
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    for (const k of keys) this.deleting.set(k, finished);
    try {
      return this.shared && keys.length > 0 ? await this.shared.tryDelete(keys, remove) : await remove(keys);
    } finally {
      for (const k of keys) this.deleting.delete(k);
      done();
    }
  }
}

const guards = new WeakMap<BlobStorage, BlobGuard>();

/** The one guard of a storage instance (uploads and the sweep of one process share it). */
export function guardOf(storage: BlobStorage): BlobGuard {
  let guard = guards.get(storage);
  if (!guard) {
    guard = new BlobGuard();
    guards.set(storage, guard);
  }
  return guard;
}
