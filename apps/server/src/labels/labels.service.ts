import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DEFAULT_PARAMETERS, type ImageLabels } from '@cassavascope/contract';
import { encodeLabelImage, readLabelPng } from '@cassavascope/ppd';
import { AuditRepository } from '../auth/audit.repository.js';
import type { AuditEntry } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { EngineUnavailableError } from '../engine/app-engine.js';
import { ApiError, notFound } from '../http/errors.js';
import { ImagesRepository, type ImageRow } from '../images/images.repository.js';
import { guardOf } from '../storage/blob-guard.js';
import { removeBlobs } from '../maintenance/blob-removal.js';
import { analysisParameters } from '../tasks/task-parameters.js';
import { LabelsRepository, type LabelRow } from './labels.repository.js';

/** Who stores labels: the signed-in user, or null while sign-in is off. */
export type LabelUser = { id: number; username: string } | null;

export const invalidLabels = (detail: string, fields?: Record<string, string>) =>
  new ApiError(400, 'invalid_labels', detail, fields ? { fields } : {});

function toImageLabels(row: LabelRow): ImageLabels {
  return {
    image_id: row.image_id,
    counts: { background: row.background, healthy: row.healthy, lesion: row.lesion, excluded: row.excluded },
    updated_time: row.updated_at,
    user: row.user_id === null ? null : { id: row.user_id, username: row.username ?? '' },
  };
}

/**
 * The rules of an image's labels (api.md "Labels and lab models"). A label image is checked and scaled to the
 * photo as shown before anything is stored; its PNG goes to a new blob key, then the row is written in a
 * transaction holding the image's row lock; the replaced blob goes after commit. Any failure removes the new
 * blob again, so nothing is half-stored.
 */
export class LabelsService {
  private readonly repo: LabelsRepository;
  private readonly images: ImagesRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new LabelsRepository(ctx.db.kysely);
    this.images = new ImagesRepository(ctx.db.kysely, ctx.db.dialect);
  }

  async imageOrNotFound(imageId: number): Promise<ImageRow> {
    const image = await this.images.getById(imageId);
    if (!image) throw notFound(`Image ${imageId}`);
    return image;
  }

  async put(imageId: number, bytes: Buffer, user: LabelUser): Promise<ImageLabels> {
    const image = await this.imageOrNotFound(imageId);
    const decoded = await readLabelPng(bytes, { width: image.width, height: image.height });
    if (!decoded.ok) throw invalidLabels(`Invalid label image: ${decoded.problem}`, { file: decoded.problem });
    const png = await encodeLabelImage(decoded.labels);
    const key = `labels/${imageId}/${randomBytes(12).toString('hex')}.png`;
    const { storage, db } = this.ctx;
    const guard = guardOf(storage);
    await guard.claim([key]);
    let row: LabelRow;
    let replaced: string | undefined;
    try {
      await storage.putBuffer(key, png, 'image/png');
      ({ row, replaced } = await db.kysely.transaction().execute(async (trx) => {
        const images = new ImagesRepository(trx, db.dialect);
        if ((await images.lockExisting([imageId], trx)).length === 0) throw notFound(`Image ${imageId}`);
        const repo = new LabelsRepository(trx);
        const before = await repo.get(imageId);
        const row: LabelRow = {
          image_id: imageId,
          blob_key: key,
          width: decoded.labels.width,
          height: decoded.labels.height,
          ...decoded.counts,
          user_id: user?.id ?? null,
          username: user?.username ?? null,
          updated_at: new Date().toISOString(),
        };
        await repo.put(row);
        return { row, replaced: before?.blob_key };
      }));
    } catch (err) {
      guard.release([key]);
      await this.deleteBlobs([key]);
      throw err;
    }
    guard.release([key]);
    if (replaced && replaced !== key) await this.deleteBlobs([replaced]);
    return toImageLabels(row);
  }

  /** The stored label PNG (404 when the image or its labels do not exist). */
  async open(imageId: number): Promise<{ stream: Readable; size: number; row: LabelRow }> {
    await this.imageOrNotFound(imageId);
    const row = await this.repo.get(imageId);
    const blob = row ? await this.ctx.storage.get(row.blob_key) : null;
    if (!row || !blob) throw new ApiError(404, 'not_found', `Image ${imageId} has no labels`);
    return { stream: blob.stream, size: blob.size, row };
  }

  /** Removes the image's labels (404 when it has none); the audit entry commits with the removal. */
  async delete(imageId: number, audit: AuditEntry): Promise<void> {
    const keys = await this.ctx.db.kysely.transaction().execute(async (trx) => {
      const images = new ImagesRepository(trx, this.ctx.db.dialect);
      if ((await images.lockExisting([imageId], trx)).length === 0) throw notFound(`Image ${imageId}`);
      const keys = await new LabelsRepository(trx).removeForImages([imageId]);
      if (keys.length === 0) throw new ApiError(404, 'not_found', `Image ${imageId} has no labels`);
      await new AuditRepository(trx).record(audit, trx);
      return keys;
    });
    await this.deleteBlobs(keys);
  }

  /**
   * The default engine's per-pixel classes of the photo (analysis mode `proposal`, in this process's engine pool:
   * an interactive call, as box scoring), as a label PNG at the photo's size as shown.
   */
  async proposal(imageId: number): Promise<Buffer> {
    const image = await this.imageOrNotFound(imageId);
    const original = await this.ctx.storage.getBuffer(image.blob_key);
    if (!original) throw new ApiError(409, 'image_unreadable', `The stored file of image ${imageId} is missing`);
    let result;
    try {
      result = await this.ctx.engine.analyse(original, analysisParameters(DEFAULT_PARAMETERS), 'proposal');
    } catch (err) {
      if (err instanceof EngineUnavailableError) throw new ApiError(503, 'engine_unavailable', err.message);
      throw err;
    }
    const proposal = result.images.proposal;
    if (!proposal) {
      throw new ApiError(
        422,
        'no_proposal',
        `The engine has no proposal for this photo${result.error_message ? `: ${result.error_message}` : ''}`,
        { engine_error_code: result.error_code },
      );
    }
    const decoded = await readLabelPng(proposal, { width: image.width, height: image.height });
    if (!decoded.ok) throw new Error(`the engine's proposal is not a label image: ${decoded.problem}`);
    return encodeLabelImage(decoded.labels);
  }

  /**
   * Blobs go after commit; a failure leaves an orphan, logged. A label key is new for every write and belongs to
   * one row, so it goes at once (storage/blob-removal.ts), not through the guard's `deleteUnclaimed`: with
   * PostgreSQL the write's own claim, just released, is still held until its unlock reaches the database, and
   * the guard skipped the key as held (issue 26: label files left behind when writes raced a delete).
   */
  private async deleteBlobs(keys: string[]): Promise<void> {
    try {
      await removeBlobs(this.ctx, keys);
    } catch (err) {
      this.ctx.log.warn({ err, keys: keys.length }, 'could not delete stored label files');
    }
  }
}
