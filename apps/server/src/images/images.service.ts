import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { listEnvelope, pagingQuerySchema, parsePaging, type Paging } from '../http/paging.js';
import { imageListFilterSchema, parseImageListQuery } from './image-list-query.js';
import type { Image, ImageList } from '@cassavascope/contract';
import { AuditRepository } from '../auth/audit.repository.js';
import type { AuditEntry } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { removeResultsOfImages } from '../predictions/image-results-cleanup.js';
import { toImage } from './image-view.js';
import { groupKey, groupRuns, type DateGrouping, type ImageGroup } from './image-groups.js';
import { fieldGroupsOf, groupsOfPage, type FieldGroup } from './field-groups.js';
import { ImagesRepository, type ImageFilter, type ImageOrder, type ImageRow } from './images.repository.js';
import { crashPoint } from '../util/crash-point.js';
import { removeBlobs } from '../maintenance/blob-removal.js';
import { ApiError, badRequest } from '../http/errors.js';
import { MetadataRepository } from '../metadata/metadata.repository.js';
import { validateMetadataChange } from './metadata-change.js';
import { isPlainName, NAME_PROBLEM } from '../names/names.js';
import { baseName } from '../names/file-names.js';
import { METADATA_FIELDS_PER_IMAGE } from '@cassavascope/contract';
import { LabelsRepository } from '../labels/labels.repository.js';
import { ResultsRepository } from '../predictions/results.repository.js';
import { removeLabelsOfImages } from '../labels/image-labels-cleanup.js';

/** `PATCH /images/{id}/`: a new name and/or metadata fields (null removes one). */
export interface ImagePatch {
  name?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** The rules of browsing and deleting images (uploads live in ../uploads). */
export class ImagesService {
  readonly repo: ImagesRepository;
  private readonly audit: AuditRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new ImagesRepository(ctx.db.kysely, ctx.db.dialect);
    this.audit = new AuditRepository(ctx.db.kysely);
  }

  /** `groupBy`: a sample field; the listing then goes group by group of its values (`fieldGroups`). */
  async list(
    filter: ImageFilter,
    order: ImageOrder,
    paging: Paging,
    groupBy?: string,
  ): Promise<Omit<ImageList, 'next' | 'previous'>> {
    const [count, facets] = await Promise.all([this.repo.count(filter), this.repo.facets()]);
    const rows =
      groupBy === undefined
        ? await this.repo.listPage(filter, order, paging.pageSize, paging.offset, {
            matching: count,
            total: facets.all,
          })
        : await this.pageByField(filter, order, paging, groupBy, count);
    return { count, results: await this.withMetadata(rows), facets };
  }

  /** One page of the listing grouped by a field: the groups it spans, in one query, each in `order`. */
  private async pageByField(
    filter: ImageFilter,
    order: ImageOrder,
    paging: Paging,
    field: string,
    count: number,
  ): Promise<ImageRow[]> {
    const groups = fieldGroupsOf(await this.repo.fieldValueCounts(filter, field), count);
    const page = groupsOfPage(groups, paging.offset, paging.pageSize);
    if (page.groups.length === 0) return [];
    const values = page.groups.map((g) => g.value);
    const ids = await this.repo.idsInFieldGroups(filter, field, values, order, paging.pageSize, page.offset);
    return this.repo.rowsInOrder(ids);
  }

  /** `GET /images/groups/?group_by=FIELD`: the field's groups over the whole filtered library (`fieldGroupsOf`). */
  async fieldGroups(filter: ImageFilter, field: string): Promise<{ count: number; groups: FieldGroup[] }> {
    const [counts, count] = await Promise.all([this.repo.fieldValueCounts(filter, field), this.repo.count(filter)]);
    return { count, groups: fieldGroupsOf(counts, count) };
  }

  async get(id: number): Promise<Image> {
    const row = await this.repo.getById(id);
    if (!row) throw notFound(`Image ${id}`);
    return (await this.withMetadata([row]))[0]!;
  }

  /** Rows as Images, each with its sample fields (one query for the whole page). */
  async withMetadata(rows: ImageRow[]): Promise<Image[]> {
    const ids = rows.map((r) => r.id);
    // Only images with a PPD can have a reviewed result (a failed result cannot be reviewed).
    const scored = rows.filter((r) => r.ppd_value !== null).map((r) => r.id);
    const [metadata, labelled, reviewed] = await Promise.all([
      new MetadataRepository(this.ctx.db.kysely).metadataOf(ids),
      new LabelsRepository(this.ctx.db.kysely).labelledAmong(ids),
      new ResultsRepository(this.ctx.db.kysely).newestReviewedOf(scored),
    ]);
    return rows.map((r) =>
      toImage(r, this.ctx.storage, metadata.get(r.id), labelled.has(r.id), reviewed.get(r.id) ?? null),
    );
  }

  /**
   * Renames an image (the upload rules: base name, NFC, no control characters, unique in its folder: 409
   * duplicate) and/or sets and removes its fields, in one transaction: all of it or nothing.
   */
  async patch(id: number, patch: ImagePatch): Promise<Image> {
    const { change, problems } = validateMetadataChange(patch.metadata ?? {});
    let name: string | undefined;
    if (patch.name !== undefined) {
      name = baseName(patch.name);
      if (!name) problems.name = 'This field may not be blank';
      else if (!isPlainName(name)) problems.name = NAME_PROBLEM;
    }
    if (Object.keys(problems).length > 0) {
      throw badRequest(
        `Invalid image change: ${Object.entries(problems)
          .map(([k, m]) => `${k}: ${m}`)
          .join('; ')}`,
        problems,
      );
    }
    await this.ctx.db.kysely.transaction().execute(async (trx) => {
      const repo = new ImagesRepository(trx, this.ctx.db.dialect);
      const row = await repo.getById(id);
      if (!row) throw notFound(`Image ${id}`);
      if (name !== undefined && name !== row.name) {
        const taken = (await repo.findByNamesInFolder([name], row.folder_id)).filter((r) => r.id !== id);
        if (taken.length > 0)
          throw new ApiError(409, 'duplicate', `An image named "${name}" is already in this folder`, {
            duplicates: [name],
          });
        await repo.rename(id, name);
      }
      const fields = new MetadataRepository(trx);
      const after = (await fields.fieldNamesOf([id])).get(id) ?? new Set<string>();
      for (const f of change.remove) after.delete(f);
      for (const f of Object.keys(change.set)) after.add(f);
      if (after.size > METADATA_FIELDS_PER_IMAGE) {
        throw badRequest(`An image has at most ${METADATA_FIELDS_PER_IMAGE} fields`, {
          metadata: `at most ${METADATA_FIELDS_PER_IMAGE} fields`,
        });
      }
      await fields.apply([{ imageId: id, ...change }]);
    });
    return this.get(id);
  }

  /**
   * Deletes an image, its prediction results and (after commit) every file no other row shares; the deletion's
   * audit entry commits with it.
   */
  async delete(id: number, audit: AuditEntry): Promise<void> {
    const keys = await this.ctx.db.kysely.transaction().execute(async (trx) => {
      const row = await this.repo.getById(id, trx);
      if (!row) throw notFound(`Image ${id}`);
      const resultKeys = await removeResultsOfImages(trx, [id]);
      resultKeys.push(...(await removeLabelsOfImages(trx, [id], this.ctx.db.dialect)));
      await this.repo.deleteByIds([id], trx);
      await this.audit.record(audit, trx);
      return [...resultKeys, ...(await this.repo.orphanedKeys([row], trx))];
    });
    await this.deleteBlobs(keys);
  }

  /**
   * Files are removed after the rows are gone; a failure here leaves an orphan file, never a broken row. Shared
   * (content-addressed) files go only if no row has taken them up again meanwhile (storage/blob-removal.ts).
   */
  async deleteBlobs(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    crashPoint('delete-before-files');
    try {
      await removeBlobs(this.ctx, keys);
    } catch (err) {
      this.ctx.log.warn({ err, keys: keys.length }, 'could not delete some stored files');
    }
  }

  /**
   * `GET /images/groups/`: the listing's groups (runs of one key in its order) over the whole filtered library,
   * with their counts and starting positions, so the screen's headers and quick-jump index need not load every
   * page first.
   */
  async groups(
    filter: ImageFilter,
    order: ImageOrder,
    grouping: DateGrouping,
  ): Promise<{ count: number; groups: ImageGroup[] }> {
    if (order.key === 'created_time') {
      // Date prefixes follow the date order: counted by the database in one grouped pass.
      const counts = await this.repo.countsByDatePrefix(
        filter,
        grouping === 'year' ? 4 : grouping === 'month' ? 7 : 10,
        order.desc,
      );
      let start = 0;
      const groups = counts.map(({ k, n }) => {
        const group = { key: /^\d{4}/.test(k) ? k : '--', count: n, start };
        start += n;
        return group;
      });
      return { count: start, groups };
    }
    const rows = await this.repo.groupValuesInOrder(filter, order);
    return { count: rows.length, groups: groupRuns(rows.map((r) => groupKey(order.key, r.v, grouping))) };
  }

  days() {
    return this.repo.days();
  }

  types() {
    return this.repo.types();
  }
}

/** The query of `GET /images/` and `GET /folders/{id}/images/`: paging, filters, ordering, `meta.FIELD=VALUE`. */
export const imageListRouteQuery = pagingQuerySchema.extend(imageListFilterSchema.shape);

/**
 * `GET /images/` and `GET /folders/{id}/images/` (the latter with the folder fixed by its path).
 * Validation happens before any query (the route's schema), so a malformed parameter changes and costs nothing.
 */
export async function listImages(
  req: FastifyRequest,
  query: z.infer<typeof imageListRouteQuery>,
  service: ImagesService,
  folderId?: number,
) {
  const paging = parsePaging(query);
  const { filter, order, groupBy } = parseImageListQuery(query);
  if (folderId !== undefined) filter.folder = folderId;
  const { count, results, facets } = await service.list(filter, order, paging, groupBy);
  return { ...listEnvelope(req, paging, count, results), facets };
}
