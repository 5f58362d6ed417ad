import { HISTOGRAM_BINS, type PredictionResult, type PredictionSummary } from '@cassavascope/contract';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { ApiError, notFound } from '../http/errors.js';
import { runJob } from '../queue/run-job.js';
import { TasksService, type CreateTaskInput } from '../tasks/tasks.service.js';
import { toResult } from './result.mapper.js';
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
    this.repo = new ResultsRepository(ctx.db.kysely);
  }

  async list(filter: ResultFilter, order: ResultOrder, limit: number, offset: number) {
    const [count, rows] = await Promise.all([this.repo.count(filter), this.repo.listPage(filter, order, limit, offset)]);
    return { count, results: rows.map((r) => toResult(r, this.ctx.storage)) };
  }

  async get(id: number): Promise<PredictionResult> {
    const row = await this.repo.get(id);
    if (!row) throw notFound('Result');
    return toResult(row, this.ctx.storage);
  }

  async summary(taskId: number | undefined): Promise<PredictionSummary> {
    const s = await this.repo.summary(taskId);
    const count = Number(s.count);
    const n = (v: unknown) => Number(v ?? 0);
    const histogram = { '0-4': n(s.b0_4), '4-7': n(s.b4_7), '7-8': n(s.b7_8), '8-10': n(s.b8_10), '>=10': n(s.b10) };
    // Keep the key order of the shared bin list (highest band first, as the results screen draws them).
    const ordered = Object.fromEntries(HISTOGRAM_BINS.map((b) => [b.key, histogram[b.key]])) as PredictionSummary['histogram'];
    return {
      count,
      average: count > 0 && s.average !== null ? round(Number(s.average), 4) : null,
      max: count > 0 && s.max !== null ? Number(s.max) : null,
      min: count > 0 && s.min !== null ? Number(s.min) : null,
      bands: { healthy: histogram['0-4'], mild: histogram['4-7'], severe: n(s.b7_8) + n(s.b8_10) + n(s.b10) },
      histogram: ordered,
    };
  }

  exportCsv(filter: ExportFilter, format: ExportFormat = 'results'): Readable {
    return exportCsvStream(this.ctx.db, filter, format);
  }

  /**
   * Scores one image now, through the same engine pool as the queue, recorded under a one-image task
   * (whose job this request runs itself; after a crash the queue finishes it).
   */
  async predictSingle(input: Omit<CreateTaskInput, 'name' | 'type'> & { image_id: number; name?: string | undefined }): Promise<PredictionResult> {
    const { task, jobId } = await this.tasks.createForSingle(input);
    await runJob(this.ctx, jobId, { concurrency: 1 });
    const row = await this.repo.getForTaskImage(task.id, input.image_id);
    if (!row) {
      const after = await this.tasks.get(task.id);
      throw new ApiError(503, 'engine_unavailable', after.error_message ?? 'The image could not be scored', { task_id: task.id });
    }
    return toResult(row, this.ctx.storage);
  }
}
