import fsp from 'node:fs/promises';
import type { Image, UploadError, UploadResponse } from '@cassavascope/contract';
import type { AppContext } from '../context.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { ApiError, unknownIds } from '../http/errors.js';
import { toImage } from '../images/image-view.js';
import { ImagesRepository, type ImageRow } from '../images/images.repository.js';
import { removeResultsOfImages } from '../predictions/image-results-cleanup.js';
import { contentTypeForKey } from '../storage/blob-storage.js';
import type { ProbedImage } from './image-probe.js';
import { EXTENSION_OF } from './image-sniff.js';
import { createLimit } from '../util/limiter.js';
import type { UploadBatch } from './upload-batch.js';
import type { StagedFile } from './staged-file.js';

/** Blob moves/uploads in flight at once while storing one request. */
const PUT_CONCURRENCY = 8;

export interface UploadOptions {
  folderId: number | null;
  checkDuplicate: boolean;
  action: 'skip' | 'overwrite' | undefined;
}

/** What happened to each file of a request, in request order. */
export type FileResult =
  | { kind: 'stored'; name: string; image: Image; overwritten: boolean }
  | { kind: 'skipped'; name: string; existing: ImageRow | undefined }
  | { kind: 'error'; name: string; error: UploadError };

type Plan =
  | { kind: 'store'; name: string; staged: StagedFile; image: ProbedImage; overwrite?: ImageRow }
  | { kind: 'skipped'; name: string; existing: ImageRow | undefined }
  | { kind: 'error'; name: string; error: UploadError };

/**
 * The duplicate rules of api.md and the storing of accepted files. Nothing is stored before the
 * whole request is known (a 409 stores nothing); blobs are moved into place first, then every row
 * is written in one transaction; if that fails, the blobs this request created are removed again.
 */
export class UploadService {
  private readonly images: ImagesRepository;
  private readonly folders: FoldersRepository;

  constructor(private readonly ctx: AppContext) {
    this.images = new ImagesRepository(ctx.db.kysely, ctx.db.dialect);
    this.folders = new FoldersRepository(ctx.db.kysely);
  }

  async ingest(batch: UploadBatch, options: UploadOptions): Promise<FileResult[]> {
    const folderSort = options.folderId === null ? '' : await this.folders.nameKeyOf(options.folderId);
    if (folderSort === undefined) throw unknownIds([options.folderId as number]);
    const plans = await this.plan(batch, options);
    return this.store(plans, options.folderId, folderSort);
  }

  /** Summarises per-file results as the upload-files / upload-batch response. */
  static response(results: FileResult[]): UploadResponse {
    const uploaded = results.flatMap((r) => (r.kind === 'stored' ? [r.image] : []));
    return {
      count: uploaded.length,
      uploaded,
      skipped: results.flatMap((r) => (r.kind === 'skipped' ? [r.name] : [])),
      errors: results.flatMap((r) => (r.kind === 'error' ? [r.error] : [])),
    };
  }

  private async plan(batch: UploadBatch, options: UploadOptions): Promise<Plan[]> {
    const outcomes = await Promise.all(batch.candidates.map((c) => c.outcome));
    const good = batch.candidates.flatMap((c, i) => {
      const o = outcomes[i];
      return o?.ok && c.staged ? [{ name: c.name, staged: c.staged, image: o.image }] : [];
    });
    const byName = new Map<string, ImageRow>();
    for (const row of await this.images.findByNamesInFolder([...new Set(good.map((g) => g.name))], options.folderId)) {
      const seen = byName.get(row.name);
      if (!seen || row.id < seen.id) byName.set(row.name, row);
    }
    const storedHashes = await this.images.existingSha256([...new Set(good.map((g) => g.staged.sha256))]);

    const seenNames = new Set<string>();
    const seenHashes = new Set<string>();
    const duplicates: string[] = [];
    const plans: Plan[] = [];
    batch.candidates.forEach((c, i) => {
      const o = outcomes[i];
      if (!o?.ok || !c.staged) {
        const why = o && !o.ok ? { code: o.code, detail: o.detail } : { code: 'not_an_image', detail: 'Not an image' };
        plans.push({ kind: 'error', name: c.name, error: { name: c.name, ...why } });
        return;
      }
      const sha = c.staged.sha256;
      const byteMatch = storedHashes.has(sha) || seenHashes.has(sha);
      const inRequestName = seenNames.has(c.name);
      const nameMatch = byName.get(c.name);
      seenNames.add(c.name);
      seenHashes.add(sha);
      const store: Plan = { kind: 'store', name: c.name, staged: c.staged, image: o.image };
      if (!options.checkDuplicate || (!byteMatch && !inRequestName && !nameMatch)) {
        plans.push(store);
        return;
      }
      duplicates.push(c.name);
      // Bytes that already exist, or a second file of this request, have nothing to replace.
      if (options.action === 'overwrite' && !byteMatch && !inRequestName && nameMatch) {
        plans.push({ ...store, overwrite: nameMatch });
      } else {
        plans.push({ kind: 'skipped', name: c.name, existing: byteMatch ? undefined : nameMatch });
      }
    });
    if (duplicates.length > 0 && options.checkDuplicate && options.action === undefined) {
      throw new ApiError(409, 'duplicate', `${duplicates.length} file(s) already exist: ${duplicates.slice(0, 20).join(', ')}`, {
        duplicates,
      });
    }
    return plans;
  }

  private async store(plans: Plan[], folderId: number | null, folderSort: string): Promise<FileResult[]> {
    const { storage } = this.ctx;
    const created: string[] = [];
    const keysOf = (p: Extract<Plan, { kind: 'store' }>) => {
      const sha = p.staged.sha256;
      return {
        blob: `originals/${sha.slice(0, 2)}/${sha}.${EXTENSION_OF[p.image.format]}`,
        thumb: `thumbs/${sha.slice(0, 2)}/${sha}.webp`,
      };
    };
    const toStore = plans.filter((p): p is Extract<Plan, { kind: 'store' }> => p.kind === 'store');
    let rows: Map<Plan, ImageRow>;
    let replaced: ImageRow[];
    let resultKeys: string[];
    try {
      const putOne = async (p: Extract<Plan, { kind: 'store' }>) => {
        const keys = keysOf(p);
        // Content-addressed: the same bytes are already in place (check_duplicate='0' re-uploads).
        if (await storage.exists(keys.blob)) await fsp.rm(p.staged.path, { force: true });
        else {
          await storage.putFile(keys.blob, p.staged.path, contentTypeForKey(keys.blob));
          created.push(keys.blob);
        }
        if (await storage.exists(keys.thumb)) await fsp.rm(p.image.thumbnailPath, { force: true });
        else {
          await storage.putFile(keys.thumb, p.image.thumbnailPath, 'image/webp');
          created.push(keys.thumb);
        }
      };
      // Same bytes go through one lane, so two files never race for the same key.
      const lanes = new Map<string, Extract<Plan, { kind: 'store' }>[]>();
      for (const p of toStore) lanes.set(p.staged.sha256, [...(lanes.get(p.staged.sha256) ?? []), p]);
      const limit = createLimit(PUT_CONCURRENCY);
      await Promise.all(
        [...lanes.values()].map((lane) =>
          limit(async () => {
            for (const p of lane) await putOne(p);
          }),
        ),
      );
      ({ rows, replaced, resultKeys } = await this.ctx.db.kysely.transaction().execute(async (trx) => {
        const rows = new Map<Plan, ImageRow>();
        const replaced: ImageRow[] = [];
        const resultKeys: string[] = [];
        const now = new Date().toISOString();
        for (const p of toStore) {
          const keys = keysOf(p);
          const content = {
            size: p.staged.size,
            format: p.image.format,
            width: p.image.width,
            height: p.image.height,
            sha256: p.staged.sha256,
            blob_key: keys.blob,
            thumb_key: keys.thumb,
          };
          if (p.overwrite) {
            resultKeys.push(...(await removeResultsOfImages(trx, [p.overwrite.id])));
            replaced.push(p.overwrite);
            rows.set(p, await this.images.replaceContent(p.overwrite.id, content, trx));
          } else {
            rows.set(p, await this.images.insert({ ...content, name: p.name, name_lower: p.name.toLowerCase(), folder_id: folderId, folder_sort: folderSort, created_at: now }, trx));
          }
        }
        return { rows, replaced, resultKeys };
      }));
    } catch (err) {
      await storage.delete(created).catch(() => undefined);
      throw err;
    }
    if (replaced.length > 0) {
      const orphans = [...resultKeys, ...(await this.images.orphanedKeys(replaced))];
      await storage.delete(orphans).catch((err) => this.ctx.log.warn({ err }, 'could not delete replaced files'));
    }
    return plans.map((p): FileResult => {
      if (p.kind === 'store') {
        const row = rows.get(p) as ImageRow;
        return { kind: 'stored', name: p.name, image: toImage(row, storage), overwritten: p.overwrite !== undefined };
      }
      return p;
    });
  }
}
