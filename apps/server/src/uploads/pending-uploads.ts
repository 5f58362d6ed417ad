import { randomBytes } from 'node:crypto';
import type { UploadBatch } from './upload-batch.js';

/** How long a refused upload's files wait for the user's choice (skip or overwrite). */
export const PENDING_UPLOAD_TTL_MS = 10 * 60_000;
/** Refused uploads kept at once; the oldest goes first when another arrives. */
const MAX_PENDING = 20;

export interface PendingUpload {
  batch: UploadBatch;
  folderId: number | null;
  expiresAt: number;
}

/**
 * Uploads refused with a 409 duplicate, kept so the user's choice does not send the bytes again (a 2.7 GB ZIP
 * was sent twice): the 409 carries `upload_token`, and `POST /images/upload-resume/` with that token and a
 * `duplicate_action` stores them. Their staged files stay in the temp dir until then, or until they expire
 * (then they are removed; leftovers of a crash go with the temp sweep at start).
 */
export class PendingUploads {
  private readonly pending = new Map<string, PendingUpload>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly ttlMs = PENDING_UPLOAD_TTL_MS) {
    this.timer = setInterval(() => void this.sweep(), Math.min(60_000, ttlMs)).unref();
  }

  /** Keeps a refused batch; returns its token. */
  keep(batch: UploadBatch, folderId: number | null): string {
    while (this.pending.size >= MAX_PENDING) {
      const [oldest] = this.pending.keys();
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    const token = randomBytes(18).toString('base64url');
    this.pending.set(token, { batch, folderId, expiresAt: Date.now() + this.ttlMs });
    return token;
  }

  /** Takes a kept batch out (the caller stores it, then discards it); undefined when unknown or expired. */
  take(token: string): PendingUpload | undefined {
    const found = this.pending.get(token);
    if (!found) return undefined;
    this.pending.delete(token);
    if (found.expiresAt < Date.now()) {
      void found.batch.discardAll();
      return undefined;
    }
    return found;
  }

  private drop(token: string): void {
    const found = this.pending.get(token);
    this.pending.delete(token);
    if (found) void found.batch.discardAll();
  }

  async sweep(now = Date.now()): Promise<void> {
    for (const [token, p] of this.pending) if (p.expiresAt < now) this.drop(token);
  }

  /** Removes every kept batch's files (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const all = [...this.pending.values()];
    this.pending.clear();
    await Promise.all(all.map((p) => p.batch.discardAll()));
  }
}
