import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import type { ImageFormat } from '../names/image-formats.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { createLimit } from '../util/limiter.js';
import { PendingUploadsRepository } from './pending-uploads.repository.js';
import { discard, type StagedFile } from '../http/staged-file.js';
import { thumbnailPathOf, UploadBatch } from './upload-batch.js';

/** How long a refused upload's files wait for the user's choice (skip, overwrite or keep both). */
export const PENDING_UPLOAD_TTL_MS = 10 * 60_000;
/** Refused uploads kept at once (over every API process); the oldest goes first when another arrives. */
const MAX_PENDING = 20;
/** Files moved into or out of blob storage at once. */
const MOVE_CONCURRENCY = 8;
const PREFIX = 'pending/';

/** One file of a kept upload, in request order: a decoded image (bytes kept) or the error it already had. */
type KeptFile =
  | { name: string; sha256: string; size: number; head: string; format: ImageFormat; width: number; height: number }
  | { name: string; error: { code: string; detail: string } };

export interface PendingUpload {
  token: string;
  batch: UploadBatch;
  folderId: number | null;
}

const fileKey = (token: string, sha256: string) => `${PREFIX}${token}/${sha256}`;
const thumbKey = (token: string, sha256: string) => `${PREFIX}${token}/${sha256}.thumb.webp`;

/**
 * Uploads refused with a 409 duplicate, kept so the user's choice does not send the bytes again (a 2.7 GB ZIP
 * was sent twice): the 409 carries `upload_token`, and `POST /images/upload-resume/` with that token and a
 * `duplicate_action` stores them. Kept where every API process sees them (issue 15 item 11: behind several
 * processes the choice may reach another one): the list of files in `pending_uploads`, each file's bytes and
 * its thumbnail in blob storage under `pending/<token>/` (a rename on the local store, an upload to S3). Every
 * process sweeps expired ones each minute.
 */
export class PendingUploads {
  private readonly repo: PendingUploadsRepository;
  private readonly storage: BlobStorage;
  private readonly log: Logger;
  private readonly timer: NodeJS.Timeout;
  private sweeping: Promise<void> = Promise.resolve();
  private readonly limit = createLimit(MOVE_CONCURRENCY);

  constructor(
    deps: { db: Kysely<Database>; storage: BlobStorage; log: Logger },
    private readonly ttlMs = PENDING_UPLOAD_TTL_MS,
  ) {
    this.repo = new PendingUploadsRepository(deps.db);
    this.storage = deps.storage;
    this.log = deps.log;
    this.timer = setInterval(() => this.sweepInBackground(), Math.min(60_000, ttlMs)).unref();
  }

  /**
   * Keeps a refused batch (its decoded files move into blob storage); returns its token, or undefined when the
   * files could not be kept (the caller answers the plain 409 then).
   */
  async keep(batch: UploadBatch, folderId: number | null): Promise<string | undefined> {
    const outcomes = await Promise.all(batch.candidates.map((c) => c.outcome));
    const files: KeptFile[] = [];
    // Identical bytes are kept once (they share one decode and one thumbnail).
    const moves = new Map<string, { staged: StagedFile; thumbnailPath: string }>();
    batch.candidates.forEach((c, i) => {
      const o = outcomes[i];
      if (!o?.ok || !c.staged) {
        files.push({
          name: c.name,
          error: o && !o.ok ? { code: o.code, detail: o.detail } : { code: 'not_an_image', detail: 'Not an image' },
        });
        return;
      }
      const { format, width, height, thumbnailPath } = o.image;
      const { sha256, size, head } = c.staged;
      files.push({ name: c.name, sha256, size, head: head.toString('base64'), format, width, height });
      if (!moves.has(sha256)) moves.set(sha256, { staged: c.staged, thumbnailPath });
    });
    const token = randomBytes(18).toString('hex');
    const now = Date.now();
    try {
      // The row first: files under a token without a row are leftovers the sweep may remove.
      await this.repo.insert({
        token,
        folder_id: folderId,
        files: JSON.stringify(files),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + this.ttlMs).toISOString(),
      });
    } catch (err) {
      this.log.warn({ err }, 'could not keep a refused upload for the duplicate choice');
      return undefined;
    }
    try {
      await Promise.all(
        [...moves].map(([sha, m]) =>
          this.limit(async () => {
            await this.storage.putFile(fileKey(token, sha), m.staged.path, 'application/octet-stream');
            await this.storage.putFile(thumbKey(token, sha), m.thumbnailPath, 'image/webp');
          }),
        ),
      );
    } catch (err) {
      this.log.warn({ err }, 'could not keep a refused upload for the duplicate choice');
      await this.repo.remove(token);
      await this.deleteFiles([token]);
      return undefined;
    }
    // Only the newest are kept; a failure here leaves the older ones to expire.
    await this.repo
      .takeAllButNewest(MAX_PENDING)
      .then((old) => this.deleteFiles(old))
      .catch((err) => this.log.warn({ err }, 'could not remove older kept uploads'));
    return token;
  }

  /**
   * Takes a kept upload out (single use) and brings its files back into this process's temp dir as a batch;
   * undefined when the token is unknown, used or expired. The caller stores the batch, then calls `finish`.
   */
  async take(token: string): Promise<PendingUpload | undefined> {
    const row = await this.repo.take(token, new Date().toISOString());
    if (!row) return undefined;
    const files = JSON.parse(row.files) as KeptFile[];
    const batch = new UploadBatch();
    const fetched = new Map<string, Promise<StagedFile>>();
    const fetch = (f: Extract<KeptFile, { sha256: string }>) => {
      let staged = fetched.get(f.sha256);
      if (!staged) {
        staged = this.limit(() => this.fetchFile(token, f));
        fetched.set(f.sha256, staged);
      }
      return staged;
    };
    let staged: (StagedFile | undefined)[];
    try {
      staged = await Promise.all(files.map((f) => ('error' in f ? undefined : fetch(f))));
    } catch (err) {
      // The row is gone: this upload cannot be finished any more (the client sends the files again).
      const done = await Promise.allSettled(fetched.values());
      await discard(done.map((d) => (d.status === 'fulfilled' ? d.value : undefined)));
      await Promise.all(
        done.map((d) =>
          d.status === 'fulfilled' ? fs.promises.rm(thumbnailPathOf(d.value.path), { force: true }) : undefined,
        ),
      );
      await this.deleteFiles([token]);
      throw err;
    }
    files.forEach((f, i) => {
      const s = staged[i];
      if ('error' in f) batch.addError(f.name, f.error.code, f.error.detail);
      else if (s)
        batch.addProbed(f.name, s, {
          format: f.format,
          width: f.width,
          height: f.height,
          thumbnailPath: thumbnailPathOf(s.path),
        });
    });
    return { token, batch, folderId: row.folder_id };
  }

  /** Removes a taken upload's temp files and its kept files. */
  async finish(found: PendingUpload): Promise<void> {
    await found.batch.discardAll();
    await this.deleteFiles([found.token]);
  }

  /** Copies a kept file and its thumbnail into the temp dir (the thumbnail where a decode leaves it). */
  private async fetchFile(token: string, f: Extract<KeptFile, { sha256: string }>): Promise<StagedFile> {
    const file = path.join(this.storage.tempDir, `${randomUUID()}.part`);
    const copies = [
      [fileKey(token, f.sha256), file],
      [thumbKey(token, f.sha256), thumbnailPathOf(file)],
    ] as const;
    try {
      for (const [key, target] of copies) {
        const object = await this.storage.get(key);
        if (!object) throw new Error(`a kept upload's file is missing: ${key}`);
        await pipeline(object.stream, fs.createWriteStream(target, { flags: 'wx' }));
      }
    } catch (err) {
      await Promise.all(copies.map(([, target]) => fs.promises.rm(target, { force: true })));
      throw err;
    }
    return { path: file, size: f.size, sha256: f.sha256, head: Buffer.from(f.head, 'base64') };
  }

  private async deleteFiles(tokens: string[]): Promise<void> {
    for (const token of tokens) {
      const prefix = `${PREFIX}${token}/`;
      if (this.storage.deletePrefix) {
        await this.storage.deletePrefix(prefix);
        continue;
      }
      const keys: string[] = [];
      for await (const key of this.storage.list(prefix)) keys.push(key);
      await this.storage.delete(keys);
    }
  }

  private sweepInBackground(): void {
    this.sweeping = this.sweeping
      .then(() => this.sweep())
      .catch((err) => this.log.warn({ err }, 'pending upload sweep failed'));
  }

  /**
   * Removes expired uploads and their files, and files under `pending/` whose row is gone and that are older
   * than twice the lifetime (a process that died between taking an upload and removing its files).
   */
  async sweep(now = Date.now()): Promise<void> {
    await this.deleteFiles(await this.repo.takeExpired(new Date(now).toISOString()));
    if (!this.storage.listWithTimes) return;
    const old = new Map<string, string[]>();
    for await (const { key, modified } of this.storage.listWithTimes(PREFIX)) {
      if (modified === undefined || modified > now - 2 * this.ttlMs) continue;
      const token = key.slice(PREFIX.length).split('/')[0] ?? '';
      old.set(token, [...(old.get(token) ?? []), key]);
    }
    const live = await this.repo.existing([...old.keys()]);
    await this.storage.delete([...old].flatMap(([token, keys]) => (live.has(token) ? [] : keys)));
  }

  /** Stops the sweep timer. Kept uploads stay: another process (or this one restarted) can still finish them. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
