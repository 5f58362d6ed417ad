import type { Folder } from '@cassavascope/contract';
import { AuditRepository } from '../auth/audit.repository.js';
import type { AuditEntry } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { ApiError, badRequest, notFound, unknownIds } from '../http/errors.js';
import type { Paging } from '../http/paging.js';
import { ImagesService } from '../images/images.service.js';
import { removeResultsOfImages } from '../predictions/image-results-cleanup.js';
import { removeLabelsOfImages } from '../labels/image-labels-cleanup.js';
import { toFolder } from './folder-view.js';
import { nameSortKey } from '../names/name-sort.js';
import { FoldersRepository, folderNameKey } from './folders.repository.js';

export interface FolderInput {
  name: string;
  description?: string | undefined;
}

export type FolderDeleteMode = { images: 'move'; target: number | null } | { images: 'delete' };

const nameExists = (name: string) =>
  new ApiError(409, 'name_exists', `A folder named "${name}" already exists`, { fields: { name: 'already exists' } });

/** The folder rules of api.md: trimmed unique names, moving images, delete with move/delete. */
export class FoldersService {
  readonly repo: FoldersRepository;
  private readonly images: ImagesService;
  private readonly audit: AuditRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new FoldersRepository(ctx.db.kysely);
    this.images = new ImagesService(ctx);
    this.audit = new AuditRepository(ctx.db.kysely);
  }

  async list(paging: Paging): Promise<{ count: number; results: Folder[] }> {
    const [count, rows] = await Promise.all([this.repo.count(), this.repo.listPage(paging.pageSize, paging.offset)]);
    return { count, results: rows.map(toFolder) };
  }

  async get(id: number): Promise<Folder> {
    const row = await this.repo.getById(id);
    if (!row) throw notFound(`Folder ${id}`);
    return toFolder(row);
  }

  async requireExists(id: number): Promise<void> {
    if (!(await this.repo.exists(id))) throw notFound(`Folder ${id}`);
  }

  async create(input: FolderInput): Promise<Folder> {
    const db = this.ctx.db.kysely;
    try {
      const id = await db.transaction().execute(async (trx) => {
        if ((await this.repo.findIdByNameKey(folderNameKey(input.name), trx)) !== undefined)
          throw nameExists(input.name);
        return this.repo.insert(input.name, input.description ?? '', new Date().toISOString(), trx);
      });
      return this.get(id);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameExists(input.name);
      throw err;
    }
  }

  /** Saving a folder under its own name (in any case) is not a conflict. Absent description: unchanged. */
  async update(id: number, input: FolderInput): Promise<Folder> {
    const db = this.ctx.db.kysely;
    try {
      await db.transaction().execute(async (trx) => {
        const current = await this.repo.getById(id, trx);
        if (!current) throw notFound(`Folder ${id}`);
        const other = await this.repo.findIdByNameKey(folderNameKey(input.name), trx);
        if (other !== undefined && other !== id) throw nameExists(input.name);
        await this.repo.update(id, input.name, input.description ?? current.description, trx);
        await this.images.repo.setFolderSort(id, nameSortKey(input.name), trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameExists(input.name);
      throw err;
    }
    return this.get(id);
  }

  /**
   * Deletes a folder, moving its images (to `target` or uncategorised) or deleting them: all or nothing,
   * its audit entry included.
   */
  async delete(id: number, mode: FolderDeleteMode, audit: AuditEntry): Promise<void> {
    const repoImages = this.images.repo;
    const keys = await this.ctx.db.kysely.transaction().execute(async (trx) => {
      if (!(await this.repo.exists(id, trx))) throw notFound(`Folder ${id}`);
      await this.audit.record(audit, trx);
      if (mode.images === 'move') {
        if (mode.target === id) throw badRequest('target must be another folder', { target: 'must be another folder' });
        const targetSort = mode.target === null ? '' : await this.repo.sortKeyOf(mode.target, trx);
        if (targetSort === undefined) throw unknownIds([mode.target as number]);
        await repoImages.moveFolderContents(id, mode.target, targetSort, trx);
        await this.repo.delete(id, trx);
        return [];
      }
      const ids = await repoImages.idsInFolder(id, trx);
      const rows = await repoImages.getByIds(ids, trx);
      const resultKeys = ids.length > 0 ? await removeResultsOfImages(trx, ids) : [];
      resultKeys.push(...(await removeLabelsOfImages(trx, ids, this.ctx.db.dialect)));
      await repoImages.deleteByIds(ids, trx);
      await this.repo.delete(id, trx);
      return [...resultKeys, ...(await repoImages.orphanedKeys(rows, trx))];
    });
    await this.images.deleteBlobs(keys);
  }

  /** Moves images into a folder (null = uncategorised). Unknown image ids: nothing moves. */
  async addImages(folderId: number | null, imageIds: number[]): Promise<number> {
    const ids = [...new Set(imageIds)];
    return this.ctx.db.kysely.transaction().execute(async (trx) => {
      const folderSort = folderId === null ? '' : await this.repo.sortKeyOf(folderId, trx);
      if (folderSort === undefined) throw notFound(`Folder ${folderId}`);
      const missing = await this.images.repo.missingIds(ids, trx);
      if (missing.length > 0) throw unknownIds(missing);
      return this.images.repo.moveToFolder(ids, folderId, folderSort, trx);
    });
  }
}
