import {
  MODEL_TYPE,
  predictionParametersSchema,
  TASK_NAME_MAX,
  TASK_STATUSES,
  type PredictionParameters,
  type Task,
  type TaskSpecimenKind,
  type TaskStatus,
} from '@cassavascope/contract';
import { AuditRepository } from '../auth/audit.repository.js';
import type { AuditEntry } from '../http/deletion-audit.js';
import type { AppContext } from '../context.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { ImagesRepository } from '../images/images.repository.js';
import { readyModel } from '../models/lab-model-files.js';
import { ApiError, notFound, unknownSelectionIds } from '../http/errors.js';
import { taskResultsPrefix } from '../predictions/result-files.js';
import { ResultsRepository } from '../predictions/results.repository.js';
import { JobsRepository } from '../queue/jobs.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { toTask } from './task.mapper.js';
import { TaskState } from './task-state.js';
import type { TaskTypeName } from '../http/task-payload.schema.js';
import { TasksRepository, type NewTask, type TaskListFilter, type TaskRow } from './tasks.repository.js';

/** Files deleted per storage call, and how many a delete request removes before answering. */
const FILE_DELETE_BATCH = 500;
const SYNC_FILE_DELETE_LIMIT = 20_000;

export interface CreateTaskInput extends Partial<PredictionParameters> {
  name: string;
  type: TaskTypeName;
  algorithm?: string | null | undefined;
  image_ids?: number[] | null | undefined;
  folder_ids?: number[] | null | undefined;
  /** the signed-in user creating it (null while sign-in is off) */
  createdBy?: number | null | undefined;
  specimen_kind?: TaskSpecimenKind | undefined;
  /** a ready lab model (null or absent: the default engine) */
  model_id?: number | null | undefined;
}

/** The rules of tasks: creation (ids resolved once, split into jobs), rename, cancel, delete. */
export class TasksService {
  private readonly repo: TasksRepository;
  /** Read only here: a task's image_ids/folder_ids become a list of existing images. */
  private readonly images: ImagesRepository;
  private readonly folders: FoldersRepository;
  private readonly audit: AuditRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new TasksRepository(ctx.db.kysely);
    this.images = new ImagesRepository(ctx.db.kysely, ctx.db.dialect);
    this.folders = new FoldersRepository(ctx.db.kysely);
    this.audit = new AuditRepository(ctx.db.kysely);
  }

  /** Creates a running task over the union of image_ids and folder_ids and hands its jobs to the queue. */
  async create(input: CreateTaskInput): Promise<Task> {
    const model = await readyModel(this.ctx.db, input.model_id, 'task');
    const imageIds = await this.resolveImages(input.image_ids ?? [], input.folder_ids ?? []);
    const row = await this.insertWithJobs({
      name: input.name,
      type: input.type,
      algorithm: input.algorithm ?? MODEL_TYPE,
      modelType: MODEL_TYPE,
      imageIds,
      parameters: parametersOf(input),
      createdBy: input.createdBy,
      specimenKind: input.specimen_kind,
      model,
    });
    await this.ctx.queue.enqueue(row.id);
    return this.view(row);
  }

  /**
   * predict_single's task: one image, queued like any task's job (tasks take turns, so it starts at the next
   * free slot). Unknown image: 400 unknown_ids.
   */
  async createForSingle(
    input: Omit<CreateTaskInput, 'name' | 'type'> & { image_id: number; name?: string | undefined },
  ): Promise<TaskRow> {
    const model = await readyModel(this.ctx.db, input.model_id, 'task');
    const imageName = (await this.images.getById(input.image_id))?.name;
    if (imageName === undefined) {
      throw new ApiError(400, 'unknown_ids', `Unknown ids: ${input.image_id}`, {
        ids: [input.image_id],
        fields: { image_id: `unknown image id: ${input.image_id}` },
      });
    }
    const task = await this.insertWithJobs({
      name: input.name ?? `Single: ${imageName}`.slice(0, TASK_NAME_MAX),
      type: 'prediction',
      algorithm: input.algorithm ?? MODEL_TYPE,
      modelType: MODEL_TYPE,
      imageIds: [input.image_id],
      parameters: { ...parametersOf(input), split_count: 1 },
      createdBy: input.createdBy,
      specimenKind: input.specimen_kind,
      model,
    });
    await this.ctx.queue.enqueue(task.id);
    return task;
  }

  /** Inserts the task (running) and its jobs (`split_count` images each) in one transaction, so a task never exists without its work. */
  private insertWithJobs(task: NewTask): Promise<TaskRow> {
    const now = new Date().toISOString();
    return this.ctx.db.kysely.transaction().execute(async (trx) => {
      const row = await new TasksRepository(trx).insert(task, TaskState.initial(now), now);
      await new JobsRepository(trx).insertJobs(row.id, task.imageIds, task.parameters.split_count, now);
      return row;
    });
  }

  /** image_ids first (in the order given), then each folder's images by id; duplicates dropped. */
  private async resolveImages(imageIds: number[], folderIds: number[]): Promise<number[]> {
    const missingImages = await this.images.missingIds([...new Set(imageIds)]);
    const missingFolders = await this.folders.missingIds([...new Set(folderIds)]);
    const unknown = unknownSelectionIds(missingImages, missingFolders);
    if (unknown) throw unknown;
    const inFolders: number[] = [];
    for (const folderId of new Set(folderIds)) inFolders.push(...(await this.images.idsInFolder(folderId)));
    const all = [...new Set([...imageIds, ...inFolders])];
    if (all.length === 0) {
      throw new ApiError(400, 'no_images', 'Select at least one image or a folder that holds images', {
        fields: { image_ids: 'no images selected' },
      });
    }
    return all;
  }

  async get(id: number): Promise<Task> {
    const row = await this.repo.get(id);
    if (!row) throw notFound('Task');
    return this.view(row);
  }

  /** One page of tasks, and how many tasks of each status exist in all (for the summary cards). */
  async list(
    filter: TaskListFilter,
    limit: number,
    offset: number,
  ): Promise<{ count: number; results: Task[]; statusCounts: Record<TaskStatus, number> }> {
    const [count, rows, byStatus] = await Promise.all([
      this.repo.count(filter),
      this.repo.listPage(filter, limit, offset),
      this.repo.countByStatus(),
    ]);
    const statusCounts = Object.fromEntries(TASK_STATUSES.map((s) => [s, byStatus[s] ?? 0])) as Record<
      TaskStatus,
      number
    >;
    const creators = await this.creatorsOf(rows);
    return { count, results: rows.map((r) => toTask(r, creators)), statusCounts };
  }

  async rename(id: number, name: string): Promise<Task> {
    const row = await this.repo.rename(id, name);
    if (!row) throw notFound('Task');
    return this.view(row);
  }

  /** A task with the name of the user who started it. */
  private async view(row: TaskRow): Promise<Task> {
    return toTask(row, await this.creatorsOf([row]));
  }

  private creatorsOf(rows: TaskRow[]): Promise<Map<number, string>> {
    const ids = [...new Set(rows.flatMap((r) => (r.created_by === null ? [] : [r.created_by])))];
    return new UsersRepository(this.ctx.db.kysely).namesOf(ids);
  }

  async cancel(id: number): Promise<Task> {
    const row = await this.repo.get(id);
    if (!row) throw notFound('Task');
    const now = new Date().toISOString();
    // running -> cancelled, atomically (only one caller wins); queued jobs close with it, and a running job sees
    // the status and stops before its next image.
    const cancelled = await this.ctx.db.kysely.transaction().execute(async (trx) => {
      if (!(await TaskState.cancel(trx, id, now))) return false;
      await new JobsRepository(trx).closeJobsOf(id, true, now);
      return true;
    });
    if (!cancelled) {
      throw new ApiError(409, 'not_running', `Task ${id} is ${row.status}, not running`, { status: row.status });
    }
    this.ctx.queue.cancel(id);
    return this.get(id);
  }

  /**
   * Cancels the task if running, then removes it, its jobs and its results with the deletion's audit entry in one
   * transaction, then their files; originals stay.
   */
  async delete(id: number, audit: AuditEntry): Promise<void> {
    this.ctx.queue.cancel(id);
    const keys = await this.ctx.db.kysely.transaction().execute(async (trx) => {
      if (!(await new TasksRepository(trx).exists(id))) throw notFound('Task');
      // Images whose newest result was among these fall back to their next newest scored result, or none.
      const keys = await new ResultsRepository(trx).removeForTask(id);
      await new JobsRepository(trx).deleteJobsOf(id);
      await new TasksRepository(trx).delete(id);
      await this.audit.record(audit, trx);
      return keys;
    });
    // Files go after commit: a crash in between leaves unreferenced files, never rows without files.
    // The prefix listing also catches files an in-flight image wrote meanwhile.
    const removeFiles = async () => {
      const all = new Set(keys);
      for await (const key of this.ctx.storage.list(taskResultsPrefix(id))) all.add(key);
      const list = [...all];
      for (let i = 0; i < list.length; i += FILE_DELETE_BATCH)
        await this.ctx.storage.delete(list.slice(i, i + FILE_DELETE_BATCH));
    };
    // A very large task's files are removed after the answer, so the client's 10 s timeout holds.
    if (keys.length <= SYNC_FILE_DELETE_LIMIT) await removeFiles();
    else
      void removeFiles().catch((err: unknown) => this.ctx.log.error({ err, taskId: id }, 'removing task files failed'));
  }
}

function parametersOf(input: Partial<PredictionParameters>): PredictionParameters {
  // The payload schema already applied the defaults; this keeps exactly the parameter keys.
  return predictionParametersSchema.parse({
    threshold: input.threshold,
    min_size: input.min_size,
    method: input.method,
    use_tta: input.use_tta,
    morph_kernel_size: input.morph_kernel_size,
    morph_iterations: input.morph_iterations,
    overlay_opacity: input.overlay_opacity,
    split_count: input.split_count,
  });
}
