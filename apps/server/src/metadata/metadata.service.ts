import {
  compileNamePattern,
  nameWithoutExtension,
  typeMetadataValue,
  type ImageMetadata,
  type MetadataParseResponse,
  type MetadataSheetResponse,
} from '@cassavascope/contract';
import type { AppContext } from '../context.js';
import { ApiError, unknownIds } from '../http/errors.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { ImagesRepository } from '../images/images.repository.js';
import { MetadataRepository, type FieldChange } from './metadata.repository.js';
import { planSheet } from './sheet-import.js';
import type { SheetRows } from './sheet-reader.js';

/** Which images a pattern is applied to: these ids, or a folder's images (null: uncategorised). */
export interface ImageScope {
  imageIds?: number[] | undefined;
  folderId?: number | null | undefined;
}

/** Setting sample fields from file names (a pattern) and from a sheet; both all-or-nothing. */
export class MetadataService {
  private readonly images: ImagesRepository;
  private readonly fields: MetadataRepository;

  constructor(private readonly ctx: AppContext) {
    this.images = new ImagesRepository(ctx.db.kysely, ctx.db.dialect);
    this.fields = new MetadataRepository(ctx.db.kysely);
  }

  /** The images of the scope, in id order; unknown ids or folder: 400 unknown_ids. */
  private async imagesOf(scope: ImageScope): Promise<{ id: number; name: string }[]> {
    if (scope.imageIds !== undefined) {
      const ids = [...new Set(scope.imageIds)];
      const missing = await this.images.missingIds(ids);
      if (missing.length > 0) {
        throw new ApiError(400, 'unknown_ids', `Unknown image ids: ${missing.join(', ')}`, {
          ids: missing,
          fields: { image_ids: `unknown ids: ${missing.slice(0, 20).join(', ')}` },
        });
      }
      const rows = await this.images.getByIds(ids);
      return rows.map((r) => ({ id: r.id, name: r.name })).sort((a, b) => a.id - b.id);
    }
    if (
      scope.folderId !== undefined &&
      scope.folderId !== null &&
      !(await new FoldersRepository(this.ctx.db.kysely).exists(scope.folderId))
    ) {
      throw unknownIds([scope.folderId]);
    }
    return this.images.namesIn(scope.folderId);
  }

  /**
   * `POST /images/metadata/parse/`: each image's name without its extension against the pattern. With
   * `apply`, the matched images get those fields in one transaction; a value refused for its field is a 400.
   */
  async parse(pattern: string, scope: ImageScope, apply: boolean): Promise<MetadataParseResponse> {
    const compiled = compileNamePattern(pattern);
    if (!compiled.ok)
      throw new ApiError(400, 'invalid', `Invalid pattern: ${compiled.problem}`, {
        fields: { pattern: compiled.problem },
      });
    const images = await this.imagesOf(scope);
    const out: MetadataParseResponse = { matched: [], unmatched: [] };
    const changes: FieldChange[] = [];
    const refused: string[] = [];
    for (const image of images) {
      const m = compiled.regex.exec(nameWithoutExtension(image.name));
      if (!m) {
        out.unmatched.push({ image_id: image.id, name: image.name });
        continue;
      }
      const metadata: ImageMetadata = {};
      const problems: Record<string, string> = {};
      compiled.fields.forEach((field, i) => {
        const text = m[i + 1] ?? '';
        const typed = typeMetadataValue(field, text);
        if (!typed.ok) {
          problems[field] = typed.problem;
          metadata[field] = text;
        } else if (typed.value !== null) metadata[field] = typed.value;
      });
      const entry = {
        image_id: image.id,
        name: image.name,
        metadata,
        ...(Object.keys(problems).length > 0 ? { problems } : {}),
      };
      out.matched.push(entry);
      if (entry.problems)
        refused.push(
          `${image.name}: ${Object.entries(problems)
            .map(([f, p]) => `${f} ${p}`)
            .join(', ')}`,
        );
      changes.push({ imageId: image.id, set: metadata, remove: [] });
    }
    if (!apply) return out;
    if (refused.length > 0) {
      const detail = `Some values do not fit their field: ${refused.slice(0, 5).join('; ')}${refused.length > 5 ? ` (and ${refused.length - 5} more)` : ''}`;
      throw new ApiError(400, 'invalid', detail, { fields: { pattern: detail } });
    }
    await this.ctx.db.kysely.transaction().execute((trx) => new MetadataRepository(trx).apply(changes));
    return { ...out, applied: changes.length };
  }

  /**
   * `POST /images/metadata/sheet/`: a row per file name, looked up among the scope's images (the whole library
   * when it names none). With any bad value nothing is applied unless `partial` (then the good rows are); the
   * rows that apply are written in one transaction. A dry run only reports.
   */
  async importSheet(
    sheet: SheetRows,
    scope: ImageScope,
    options: { partial: boolean; dryRun: boolean },
  ): Promise<MetadataSheetResponse> {
    const images = await this.imagesOf(scope);
    const plan = planSheet(sheet, images);
    if (options.dryRun) return { applied: 0, committed: false, rows: plan.rows, dry_run: true };
    const commit = plan.badValues === 0 || options.partial;
    if (commit && plan.changes.length > 0) {
      await this.ctx.db.kysely.transaction().execute((trx) => new MetadataRepository(trx).apply(plan.changes));
    }
    return { applied: commit ? plan.changes.length : 0, committed: commit, rows: plan.rows };
  }

  fieldNames() {
    return this.fields.fieldNames();
  }

  values(field: string, limit: number) {
    return this.fields.valuesOf(field, limit);
  }
}
