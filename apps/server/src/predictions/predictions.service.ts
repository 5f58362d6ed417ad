import { HISTOGRAM_BINS, severityOf, type PredictionResult, type PredictionSummary } from '@cassavascope/contract';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { ApiError, notFound } from '../http/errors.js';
import { TasksService, type CreateTaskInput } from '../tasks/tasks.service.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { toResult, type TaskModels } from './result.mapper.js';
import { groupsCsv, toResultGroups } from './result-groups.js';
import { GROUP_VALUES_MAX, PPD_TRAIT_COLUMN, type ResultGroup } from '@cassavascope/contract';
import { exportCsvStream, type ExportFilter } from './results-export.js';
import { ResultsRepository, type ExportFormat, type ResultFilter, type ResultOrder } from './results.repository.js';

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Reading results (list, one, summary, export) and predict_single. */
export class PredictionsService {
  private readonly repo: ResultsRepository;

  constructor(
    private readonly ctx: AppContext,
    private readonly tasks: TasksService,
  ) {
    this.repo = new ResultsRepository(ctx.db.kysely, ctx.db.readers);
  }

  async list(filter: ResultFilter, order: ResultOrder, limit: number, offset: number) {
    const [count, rows] = await Promise.all([
      this.repo.count(filter),
      this.repo.listPage(filter, order, limit, offset),
    ]);
    const models = await this.modelsOf(rows);
    return { count, results: rows.map((r) => toResult(r, this.ctx.storage, models)) };
  }

  async get(id: number): Promise<PredictionResult> {
    const row = await this.repo.get(id);
    if (!row) throw notFound('Result');
    return toResult(row, this.ctx.storage, await this.modelsOf([row]));
  }

  /** The lab model of the tasks of these results (one query a page). */
  private modelsOf(rows: { task_id: number }[]): Promise<TaskModels> {
    return new TasksRepository(this.ctx.db.kysely).modelsOf(rows.map((r) => r.task_id));
  }

  /** Over the scored results of the filter, with their reviewed values; bins and bands are the contract's. */
  async summary(filter: ResultFilter): Promise<PredictionSummary> {
    const s = await this.repo.summary(filter);
    const count = s.count;
    // Keep the key order of the shared bin list (highest band first, as the results screen draws them).
    const histogram = Object.fromEntries(
      HISTOGRAM_BINS.map((b) => [b.key, s.bins[b.key]]),
    ) as PredictionSummary['histogram'];
    const bands = { healthy: 0, mild: 0, severe: 0 };
    // Every bin lies inside one band (the bins split the bands further): a bin's band is its lower limit's.
    for (const b of HISTOGRAM_BINS) bands[severityOf(Number.isFinite(b.from) ? b.from : 0)] += s.bins[b.key];
    return {
      count,
      average: count > 0 && s.average !== null ? round(Number(s.average), 4) : null,
      max: count > 0 && s.max !== null ? Number(s.max) : null,
      min: count > 0 && s.min !== null ? Number(s.min) : null,
      bands,
      histogram,
    };
  }

  /**
   * Scored results grouped by one or two sample fields, with reviewed values (api.md GET /predictions/groups/);
   * `withValues`: each group also lists its results' values, when there are at most GROUP_VALUES_MAX in all.
   */
  async groups(filter: ResultFilter, fields: string[], withValues = false): Promise<ResultGroup[]> {
    const [sums, values] = await Promise.all([
      this.repo.groupSums(filter, fields),
      withValues ? this.repo.groupValues(filter, fields, GROUP_VALUES_MAX) : null,
    ]);
    return toResultGroups(fields, sums, values ?? undefined);
  }

  groupsCsv(fields: string[], groups: ResultGroup[]): string {
    return groupsCsv(fields, groups, PPD_TRAIT_COLUMN);
  }

  exportCsv(filter: ExportFilter, format: ExportFormat = 'results'): Readable {
    return exportCsvStream(this.ctx.db, filter, format);
  }

  /**
   * Scores one image now: a one-image task whose job goes through the queue like any other (tasks take
   * turns, so it starts at the next free slot), then waits for its result row.
   */
  async predictSingle(
    input: Omit<CreateTaskInput, 'name' | 'type'> & { image_id: number; name?: string | undefined },
  ): Promise<PredictionResult> {
    const task = await this.tasks.createForSingle(input);
    const deadline = Date.now() + SINGLE_WAIT_MS;
    for (let wait = 20; ; wait = Math.min(250, wait * 1.5)) {
      const row = await this.repo.getForTaskImage(task.id, input.image_id);
      if (row) return toResult(row, this.ctx.storage, await this.modelsOf([row]));
      const after = await this.tasks.get(task.id);
      if (after.status !== 'running') {
        throw new ApiError(503, 'engine_unavailable', after.error_message ?? 'The image could not be scored', {
          task_id: task.id,
        });
      }
      if (Date.now() > deadline) {
        throw new ApiError(
          504,
          'still_running',
          'The image is still being scored: its result will appear under the task',
          { task_id: task.id },
        );
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** How long predict_single waits for its queued job before answering with the task to follow. */
const SINGLE_WAIT_MS = 120_000;
