import type { BlobStorage } from './blob-storage.js';

/**
 * Keeps the orphan sweep and this process's writers apart. A writer (an upload) claims the keys it is about
 * to put in place or reuse, and releases them once its rows are committed; the sweep never deletes a claimed
 * key, and a claim made while the sweep deletes that key waits for the delete to finish (the writer then
 * finds the key gone and puts its own bytes). Both steps are synchronous in the one JS thread, so no claim
 * slips between the sweep's check and its delete.
 */
export class BlobGuard {
  private readonly claims = new Map<string, number>();
  private readonly deleting = new Map<string, Promise<void>>();

  async claim(keys: string[]): Promise<void> {
    for (;;) {
      const busy = keys.map((k) => this.deleting.get(k)).filter((p): p is Promise<void> => p !== undefined);
      if (busy.length === 0) break;
      await Promise.all(busy);
    }
    for (const k of keys) this.claims.set(k, (this.claims.get(k) ?? 0) + 1);
  }

  release(keys: string[]): void {
    for (const k of keys) {
      const n = (this.claims.get(k) ?? 0) - 1;
      if (n <= 0) this.claims.delete(k);
      else this.claims.set(k, n);
    }
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
      return await remove(keys);
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
