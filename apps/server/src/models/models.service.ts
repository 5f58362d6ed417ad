import { randomUUID } from 'node:crypto';
import { MODEL_NAME_MAX, type LabelledPixels, type Model } from '@cassavascope/contract';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { ApiError, notFound, unknownSelectionIds } from '../http/errors.js';
import { ImagesRepository } from '../images/images.repository.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { readLabModelFile } from './lab-model-engine.js';
import { LabelledImagesRepository } from './labelled-images.repository.js';
import { modelFileKey } from './model-keys.js';
import { toModel } from './model.mapper.js';
import { modelNameSchema } from './model-payload.schema.js';
import { deleteModelFiles } from './model-training.js';
import { ModelsRepository, type ModelRow } from './models.repository.js';

export interface CreateModelInput {
  name: string;
  image_ids?: number[] | null | undefined;
  folder_ids?: number[] | null | undefined;
  createdBy: number | null;
}

/** The rules of lab models: training (through the queue), rename, cancel, delete, the portable file. */
export class ModelsService {
  private readonly repo: ModelsRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new ModelsRepository(ctx.db.kysely);
  }

  /**
   * A model `training` over the labelled images among image_ids and folder_ids (neither: every labelled image),
   * its training handed to the queue. Fewer than 2 labelled photos, or no healthy or no lesion pixel among them:
   * 400 not_enough_labels.
   */
  async create(input: CreateModelInput): Promise<Model> {
    const imageIds = input.image_ids ?? null;
    const folderIds = input.folder_ids ?? null;
    await this.checkIds(imageIds ?? [], folderIds ?? []);
    const labelled = await new LabelledImagesRepository(this.ctx.db.kysely).labelled(imageIds, folderIds);
    const pixels: LabelledPixels = { background: 0, healthy: 0, lesion: 0, excluded: 0 };
    for (const l of labelled) {
      pixels.background += l.background;
      pixels.healthy += l.healthy;
      pixels.lesion += l.lesion;
      pixels.excluded += l.excluded;
    }
    const problem =
      labelled.length < 2
        ? `${labelled.length} labelled photo${labelled.length === 1 ? '' : 's'} selected: a model needs at least 2`
        : pixels.healthy === 0
          ? 'No healthy tissue is labelled on the selected photos'
          : pixels.lesion === 0
            ? 'No discoloured tissue (lesion) is labelled on the selected photos'
            : null;
    if (problem) {
      throw new ApiError(400, 'not_enough_labels', problem, {
        labelled_images: labelled.length,
        labelled_pixels: pixels,
      });
    }
    const row = await this.repo.insertTraining({
      name: input.name,
      imageIds: labelled.map((l) => l.image_id),
      labelledPixels: { ...pixels },
      createdBy: input.createdBy,
    });
    await this.ctx.queue.enqueueTraining(row.id);
    return this.view(row);
  }

  private async checkIds(imageIds: number[], folderIds: number[]): Promise<void> {
    const missingImages = await new ImagesRepository(this.ctx.db.kysely, this.ctx.db.dialect).missingIds([
      ...new Set(imageIds),
    ]);
    const missingFolders = await new FoldersRepository(this.ctx.db.kysely).missingIds([...new Set(folderIds)]);
    const unknown = unknownSelectionIds(missingImages, missingFolders);
    if (unknown) throw unknown;
  }

  async get(id: number): Promise<Model> {
    return this.view(await this.row(id));
  }

  private async row(id: number): Promise<ModelRow> {
    const row = await this.repo.get(id);
    if (!row) throw notFound('Model');
    return row;
  }

  async list(limit: number, offset: number): Promise<{ count: number; results: Model[] }> {
    const [count, rows] = await Promise.all([this.repo.count(), this.repo.listPage(limit, offset)]);
    const creators = await this.creatorsOf(rows);
    return { count, results: rows.map((r) => toModel(r, this.ctx.storage, creators)) };
  }

  async rename(id: number, name: string): Promise<Model> {
    const row = await this.repo.rename(id, name);
    if (!row) throw notFound('Model');
    return this.view(row);
  }

  async cancel(id: number): Promise<Model> {
    const row = await this.row(id);
    if (!(await this.repo.stopTraining(id, 'cancelled', null))) {
      throw new ApiError(409, 'not_running', `Model ${id} is ${row.status}, not training`, { status: row.status });
    }
    this.ctx.queue.cancelTraining(id);
    return this.get(id);
  }

  /** 409 model_in_use while a running task scores with it; a training one is stopped first. Results keep its name. */
  async delete(id: number): Promise<void> {
    await this.row(id);
    const using = await new TasksRepository(this.ctx.db.kysely).runningWithModel(id);
    if (using.length > 0) {
      throw new ApiError(409, 'model_in_use', `Running tasks score with this model: ${using.join(', ')}`, {
        task_ids: using,
      });
    }
    await this.repo.stopTraining(id, 'cancelled', null);
    this.ctx.queue.cancelTraining(id);
    if (!(await this.repo.delete(id))) throw notFound('Model');
    // Files go after the row: a crash in between leaves files no row names (under models/<id>/), never a row without its file.
    await deleteModelFiles(this.ctx.storage, id);
  }

  /** The portable file of a ready model, and a download name (`<name>.labmodel.json`: the JSON the engine's CLI reads with `ppd evaluate --model`). */
  async file(id: number): Promise<{ stream: Readable; size: number; fileName: string }> {
    const row = await this.row(id);
    if (row.status !== 'ready' || !row.file_key) {
      throw new ApiError(409, 'not_ready', `Model ${id} is ${row.status}: only a ready model has a file`, {
        status: row.status,
      });
    }
    const file = await this.ctx.storage.get(row.file_key);
    if (!file) throw notFound('Model file');
    return { stream: file.stream, size: file.size, fileName: `${row.name}${MODEL_FILE_EXTENSION}` };
  }

  /** A model file from another lab or server: 201 ready; anything the engine cannot read is 400 invalid_model. */
  async import(bytes: Buffer, fileName: string | undefined, createdBy: number | null): Promise<Model> {
    let info: ModelFileInfo;
    try {
      info = describe(await readLabModelFile(bytes));
    } catch (err) {
      throw new ApiError(
        400,
        'invalid_model',
        `The file is not a lab model: ${err instanceof Error ? err.message : String(err)}`,
        {
          fields: { file: 'not a lab model file' },
        },
      );
    }
    const named = modelNameSchema.safeParse((info.name ?? stem(fileName) ?? '').slice(0, MODEL_NAME_MAX));
    // The row and its file in one transaction: a failed write leaves no row.
    const row = await this.ctx.db.kysely.transaction().execute(async (trx) => {
      const models = new ModelsRepository(trx);
      const inserted = await models.insertReady({
        name: named.success ? named.data : 'Imported model',
        imageCount: info.imageCount ?? 0,
        labelledPixels: info.labelledPixels ?? {},
        metrics: info.metrics ?? null,
        fileSize: bytes.byteLength,
        createdBy,
      });
      const key = modelFileKey(inserted.id, randomUUID());
      await this.ctx.storage.putBuffer(key, bytes, 'application/octet-stream');
      return models.setFileKey(inserted.id, key);
    });
    return this.view(row);
  }

  private async view(row: ModelRow): Promise<Model> {
    return toModel(row, this.ctx.storage, await this.creatorsOf([row]));
  }

  private creatorsOf(rows: ModelRow[]): Promise<Map<number, string>> {
    const ids = [...new Set(rows.flatMap((r) => (r.created_by === null ? [] : [r.created_by])))];
    return new UsersRepository(this.ctx.db.kysely).namesOf(ids);
  }
}

/** The portable file's extension (docs/model.md, "Lab model files"). */
export const MODEL_FILE_EXTENSION = '.labmodel.json';

interface ModelFileInfo {
  name?: string | undefined;
  imageCount?: number | undefined;
  metrics?: Record<string, number> | null | undefined;
  labelledPixels?: Record<string, number> | undefined;
}

/** What a read model file says about itself (the engine's LabModel: `name`, and `training` with its figures). */
function describe(read: unknown): ModelFileInfo {
  const record = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  const r = record(read);
  const training = record(r.training);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const metrics = r.training && training.metrics ? (training.metrics as Record<string, number>) : null;
  const pixels = training.labelled_pixels ? (training.labelled_pixels as Record<string, number>) : undefined;
  return {
    name: typeof r.name === 'string' && r.name.trim() ? r.name : undefined,
    imageCount: num(training.image_count),
    metrics,
    labelledPixels: pixels,
  };
}

function stem(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const base = fileName.replace(/^.*[\\/]/, '');
  if (base.toLowerCase().endsWith(MODEL_FILE_EXTENSION))
    return base.slice(0, -MODEL_FILE_EXTENSION.length) || undefined;
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base) || undefined;
}
