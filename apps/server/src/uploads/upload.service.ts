import fsp from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Image, ImageMetadata, UploadError, UploadResponse } from '@cassavascope/contract';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { ApiError, unknownIds } from '../http/errors.js';
import { toImage } from '../images/image-view.js';
import { ImagesRepository, type ImageRow } from '../images/images.repository.js';
import { ImagesService } from '../images/images.service.js';
import { MetadataRepository } from '../metadata/metadata.repository.js';
import { removeResultsOfImages } from '../predictions/image-results-cleanup.js';
import { removeLabelsOfImages } from '../labels/image-labels-cleanup.js';
import { contentTypeForKey } from '../storage/blob-storage.js';
import { guardOf } from '../storage/blob-guard.js';
import { removeBlobs } from '../maintenance/blob-removal.js';
import { STORAGE_FULL_DETAIL } from '../storage/storage-full.js';
import type { ProbedImage } from './image-probe.js';
import { EXTENSION_OF } from './image-sniff.js';
import { createLimit } from '../util/limiter.js';
import type { UploadBatch } from './upload-batch.js';
import type { StagedFile } from '../http/staged-file.js';
import { crashPoint } from '../util/crash-point.js';

/** Blob moves/uploads in flight at once while storing one request. */
const PUT_CONCURRENCY = 8;

export interface UploadOptions {
  folderId: number | null;
  checkDuplicate: boolean;
  /** what to do with duplicates: leave them out, replace the image of the same name, or store them beside it */
  action: 'skip' | 'overwrite' | 'keep_both' | undefined;
}

/** `photo.jpg` -> `photo (2).jpg`, `photo (3).jpg`...: the n-th copy's name (the extension stays last). */
export function copyName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${stem} (${n})${ext}`;
}

/** Copy numbers tried per lookup of the names already taken. */
const COPY_NAMES_PER_LOOKUP = 20;

/**
 * One duplicate of a 409 (an addition to api.md's `duplicates`): matched `by` its name in the target folder, by its
 * bytes elsewhere in the library, both, or an earlier file of the same request; `existing` is the image it matched.
 */
export interface DuplicateMatch {
  name: string;
  by: 'name' | 'content' | 'name_and_content' | 'request';
  existing: { id: number; name: string; folder_id: number | null } | null;
}

/** What happened to each file of a request, in request order. */
export type FileResult =
  | { kind: 'stored'; name: string; image: Image; overwritten: boolean }
  | { kind: 'skipped'; name: string; existing: ImageRow | undefined }
  | { kind: 'error'; name: string; error: UploadError };

type StorePlan = Extract<Plan, { kind: 'store' }>;

/** Content-addressed storage keys of a file to store. */
function keysOf(p: StorePlan): { blob: string; thumb: string } {
  const sha = p.staged.sha256;
  return {
    blob: `originals/${sha.slice(0, 2)}/${sha}.${EXTENSION_OF[p.image.format]}`,
    thumb: `thumbs/${sha.slice(0, 2)}/${sha}.webp`,
  };
}

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
    await this.folderSortOf(options.folderId);
    // A 409 before any file is stored; checked again when the rows go in (another request may have won).
    const plans = await this.plan(batch, options);
    return this.store(batch, plans, options);
  }

  /** The oldest image holding these bytes (what a skipped single upload answers with). */
  async imageWithBytes(sha256: string): Promise<ImageRow | undefined> {
    return this.images.getBySha256(sha256);
  }

  /** An existing image as GET /images/{id}/ shows it (the answer of a skipped single upload). */
  async imageView(row: ImageRow): Promise<Image> {
    const [image] = await new ImagesService(this.ctx).withMetadata([row]);
    return image!;
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

  private async plan(
    batch: UploadBatch,
    options: UploadOptions,
    db: Kysely<Database> = this.ctx.db.kysely,
  ): Promise<Plan[]> {
    const outcomes = await Promise.all(batch.candidates.map((c) => c.outcome));
    // A file that could not be staged for lack of space fails the whole request: nothing half-stored.
    if (outcomes.some((o) => !o.ok && o.code === 'storage_full'))
      throw new ApiError(507, 'storage_full', STORAGE_FULL_DETAIL);
    const good = batch.candidates.flatMap((c, i) => {
      const o = outcomes[i];
      return o?.ok && c.staged ? [{ name: c.name, staged: c.staged, image: o.image }] : [];
    });
    const byName = new Map<string, ImageRow>();
    for (const row of await this.images.findByNamesInFolder(
      [...new Set(good.map((g) => g.name))],
      options.folderId,
      db,
    )) {
      const seen = byName.get(row.name);
      if (!seen || row.id < seen.id) byName.set(row.name, row);
    }
    const holdersOf = await this.images.imageIdsBySha256([...new Set(good.map((g) => g.staged.sha256))], db);

    const seenNames = new Set<string>();
    const seenHashes = new Set<string>();
    const duplicates: string[] = [];
    /** Why each duplicate is one, for the 409 (the dialog says by name or by content, and which image). */
    const matches: { name: string; by: DuplicateMatch['by']; sha256: string; existing: ImageRow | undefined }[] = [];
    const plans: Plan[] = [];
    /** keep_both: the stores whose name is taken, renamed below */
    const renames: StorePlan[] = [];
    batch.candidates.forEach((c, i) => {
      const o = outcomes[i];
      if (!o?.ok || !c.staged) {
        const why = o && !o.ok ? { code: o.code, detail: o.detail } : { code: 'not_an_image', detail: 'Not an image' };
        plans.push({ kind: 'error', name: c.name, error: { name: c.name, ...why } });
        return;
      }
      const sha = c.staged.sha256;
      const inRequestName = seenNames.has(c.name);
      const nameMatch = byName.get(c.name);
      const holders = holdersOf.get(sha) ?? [];
      const byteMatch = holders.length > 0 || seenHashes.has(sha);
      // The same bytes under another image (or earlier in this request): nothing to replace. The same
      // file sent again under its own name can still be overwritten (its results start over).
      const byteMatchElsewhere = holders.some((id) => id !== nameMatch?.id) || seenHashes.has(sha);
      seenNames.add(c.name);
      seenHashes.add(sha);
      const store: StorePlan = { kind: 'store', name: c.name, staged: c.staged, image: o.image };
      if (!options.checkDuplicate || (!byteMatch && !inRequestName && !nameMatch)) {
        plans.push(store);
        return;
      }
      duplicates.push(c.name);
      const inRequest = inRequestName || (seenHashes.has(sha) && holders.length === 0 && !nameMatch);
      matches.push({
        name: c.name,
        by: nameMatch
          ? holders.includes(nameMatch.id)
            ? 'name_and_content'
            : 'name'
          : holders.length > 0
            ? 'content'
            : inRequest
              ? 'request'
              : 'content',
        sha256: sha,
        existing: nameMatch,
      });
      // keep_both: stored anyway; a name already taken (in the folder or earlier in this request) becomes the first
      // free "name (n).ext" below, once every name of the request is known.
      if (options.action === 'keep_both') {
        plans.push(store);
        if (nameMatch || inRequestName) renames.push(store);
        return;
      }
      // Bytes that already exist, or a second file of this request, have nothing to replace.
      if (options.action === 'overwrite' && !byteMatchElsewhere && !inRequestName && nameMatch) {
        plans.push({ ...store, overwrite: nameMatch });
      } else {
        plans.push({ kind: 'skipped', name: c.name, existing: byteMatchElsewhere ? undefined : nameMatch });
      }
    });
    if (duplicates.length > 0 && options.checkDuplicate && options.action === undefined) {
      throw new ApiError(
        409,
        'duplicate',
        `${duplicates.length} file(s) already exist: ${duplicates.slice(0, 20).join(', ')}`,
        {
          duplicates,
          matches: await this.describeMatches(matches, db),
        },
      );
    }
    if (renames.length > 0) await this.renameCopies(renames, seenNames, options.folderId, db);
    return plans;
  }

  /**
   * keep_both: each of these stores gets the first "name (n).ext" (n from 2) that no image of the folder has and no
   * other file of this request takes. `taken` holds the request's own names and grows with each new one.
   */
  private async renameCopies(
    stores: StorePlan[],
    taken: Set<string>,
    folderId: number | null,
    db: Kysely<Database>,
  ): Promise<void> {
    for (const p of stores) {
      const original = p.name;
      for (let from = 2; ; from += COPY_NAMES_PER_LOOKUP) {
        const candidates = Array.from({ length: COPY_NAMES_PER_LOOKUP }, (_, k) => copyName(original, from + k)).filter(
          (n) => !taken.has(n),
        );
        const inFolder = new Set(
          (await this.images.findByNamesInFolder(candidates, folderId, db)).map((row) => row.name),
        );
        const free = candidates.find((n) => !inFolder.has(n));
        if (free) {
          p.name = free;
          taken.add(free);
          break;
        }
      }
    }
  }

  /** Each duplicate with how it matched and the image it matched (content matches: the oldest with those bytes). */
  private async describeMatches(
    matches: { name: string; by: DuplicateMatch['by']; sha256: string; existing: ImageRow | undefined }[],
    db: Kysely<Database>,
  ): Promise<DuplicateMatch[]> {
    const out: DuplicateMatch[] = [];
    for (const m of matches) {
      const existing = m.existing ?? (m.by === 'request' ? undefined : await this.images.getBySha256(m.sha256, db));
      out.push({
        name: m.name,
        by: m.by,
        existing: existing ? { id: existing.id, name: existing.name, folder_id: existing.folder_id } : null,
      });
    }
    return out;
  }

  /**
   * Two requests with the same name or bytes can both pass the first check. The rows go in one at a time
   * (SQLite has one writer; PostgreSQL takes an advisory lock), after the check is made again inside that
   * transaction: a file another request stored meanwhile is a 409, or skipped with duplicate_action.
   */
  private async recheck(
    trx: Kysely<Database>,
    batch: UploadBatch,
    options: UploadOptions,
    plans: Plan[],
  ): Promise<Plan[]> {
    if (!options.checkDuplicate) return plans;
    await this.images.lockUploadRows(trx);
    const fresh = await this.plan(batch, options, trx);
    // Only a store can turn into a duplicate; nothing was put in place for the others.
    return plans.map((p, i) => (p.kind === 'store' ? (fresh[i] ?? p) : p));
  }

  /**
   * Removes the files this request created for these plans, unless a row refers to the same bytes
   * (content-addressed keys: a concurrent upload of the same file may use them).
   */
  private async deleteUnreferenced(plans: StorePlan[], created: string[]): Promise<void> {
    const mine = new Set(created);
    const keys = await this.images.orphanedKeys(
      plans.map((p) => ({ sha256: p.staged.sha256, blob_key: keysOf(p).blob, thumb_key: keysOf(p).thumb })),
    );
    await this.ctx.storage
      .delete(keys.filter((k) => mine.has(k)))
      .catch((err) => this.ctx.log.warn({ err }, 'could not delete unused files'));
  }

  /** The target folder's sort key ('' for none); 400 unknown_ids when it does not exist (or no longer does). */
  private async folderSortOf(folderId: number | null, db: Kysely<Database> = this.ctx.db.kysely): Promise<string> {
    if (folderId === null) return '';
    const sort = await this.folders.sortKeyOf(folderId, db);
    if (sort === undefined) throw unknownIds([folderId]);
    return sort;
  }

  /**
   * Claims the keys this request puts in place or reuses until its rows are committed: the orphan sweep
   * (storage/orphan-sweep.ts) leaves claimed keys alone, so a blob never goes between its put and its row.
   */
  private async store(batch: UploadBatch, planned: Plan[], options: UploadOptions): Promise<FileResult[]> {
    const keys = [...new Set(planned.flatMap((p) => (p.kind === 'store' ? Object.values(keysOf(p)) : [])))];
    const guard = guardOf(this.ctx.storage);
    await guard.claim(keys);
    try {
      return await this.storeClaimed(batch, planned, options);
    } finally {
      guard.release(keys);
    }
  }

  private async storeClaimed(batch: UploadBatch, planned: Plan[], options: UploadOptions): Promise<FileResult[]> {
    const { storage } = this.ctx;
    const { folderId } = options;
    let plans = planned;
    const created: string[] = [];
    const isStore = (p: Plan): p is StorePlan => p.kind === 'store';
    const putInPlace = plans.filter(isStore);
    let rows: Map<Plan, ImageRow>;
    let replaced: ImageRow[];
    let resultKeys: string[];
    try {
      const putOne = async (p: StorePlan) => {
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
      const lanes = new Map<string, StorePlan[]>();
      for (const p of putInPlace) lanes.set(p.staged.sha256, [...(lanes.get(p.staged.sha256) ?? []), p]);
      const limit = createLimit(PUT_CONCURRENCY);
      await Promise.all(
        [...lanes.values()].map((lane) =>
          limit(async () => {
            for (const p of lane) await putOne(p);
          }),
        ),
      );
      crashPoint('upload-before-rows');
      ({ plans, rows, replaced, resultKeys } = await this.ctx.db.kysely.transaction().execute(async (trx) => {
        // Read again here: the folder may have been deleted or renamed while the files were decoded.
        const folderSort = await this.folderSortOf(folderId, trx);
        const plans = await this.recheck(trx, batch, options, planned);
        const toStore = plans.filter(isStore);
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
            // Labels describe the old photo's pixels: they go with it.
            resultKeys.push(...(await removeLabelsOfImages(trx, [p.overwrite.id], this.ctx.db.dialect)));
            replaced.push(p.overwrite);
            rows.set(p, await this.images.replaceContent(p.overwrite.id, content, trx));
          } else {
            rows.set(
              p,
              await this.images.insert(
                {
                  ...content,
                  name: p.name,
                  name_lower: p.name.toLowerCase(),
                  folder_id: folderId,
                  folder_sort: folderSort,
                  created_at: now,
                },
                trx,
              ),
            );
          }
        }
        return { plans, rows, replaced, resultKeys };
      }));
    } catch (err) {
      await this.deleteUnreferenced(putInPlace, created);
      // PostgreSQL: the folder went between the check above and the insert.
      if (folderId !== null && isForeignKeyViolation(err)) throw unknownIds([folderId]);
      throw err;
    }
    // Files put in place for what the recheck turned into duplicates.
    const notStored = planned.filter((p, i): p is StorePlan => p.kind === 'store' && plans[i]?.kind !== 'store');
    if (notStored.length > 0) await this.deleteUnreferenced(notStored, created);
    if (replaced.length > 0) {
      const orphans = [...resultKeys, ...(await this.images.orphanedKeys(replaced))];
      // Through the blob guard: another upload may be taking up the replaced bytes again (issue 26).
      await removeBlobs(this.ctx, orphans).catch((err) =>
        this.ctx.log.warn({ err }, 'could not delete replaced files'),
      );
    }
    // An overwritten image keeps its sample fields (same id); a new one has none yet.
    const overwrittenIds = plans.flatMap((p) => (p.kind === 'store' && p.overwrite ? [p.overwrite.id] : []));
    const fields =
      overwrittenIds.length > 0
        ? await new MetadataRepository(this.ctx.db.kysely).metadataOf(overwrittenIds)
        : new Map<number, ImageMetadata>();
    return plans.map((p): FileResult => {
      if (p.kind === 'store') {
        const row = rows.get(p) as ImageRow;
        return {
          kind: 'stored',
          name: p.name,
          // New, or overwritten (which drops its labels and results): no labels and no reviewed result.
          image: toImage(row, storage, fields.get(row.id), false, null),
          overwritten: p.overwrite !== undefined,
        };
      }
      return p;
    });
  }
}
