import { randomUUID } from 'node:crypto';
import type {
  PredictionResult,
  ReviewHistoryEntry,
  ReviewChange,
  SpecimenKind,
  TaskSpecimenKind,
} from '@cassavascope/contract';
import type { AnalyseOptions } from '@cassavascope/ppd';
import type { AppContext } from '../context.js';
import { ApiError, notFound } from '../http/errors.js';
import { TaskState } from '../tasks/task-state.js';
import { TasksRepository, type TaskRow } from '../tasks/tasks.repository.js';
import { labModelOption, readyModel } from '../models/lab-model-files.js';
import { UsersRepository } from '../users/users.repository.js';
import { cropBox, cutImage, scoreBox } from './box-scoring.js';
import { addedSpecimenKeyBase } from './result-files.js';
import { toResult } from './result.mapper.js';
import { assertScored, patchSpecimen, reviewedValues, type ChangeMade, type SpecimenPatch } from './review-rules.js';
import { ResultsRepository, type NewReviewRow, type ResultRow } from './results.repository.js';
import { parseStoredSpecimens, type StoredSpecimen } from './stored-specimens.js';
import { storedTaskParameters } from '../tasks/task-parameters.js';

/** Who makes a review change: the signed-in user's id, null while sign-in is off (api.md: `user` is null). */
export interface Reviewer {
  userId: number | null;
}

export interface AddSpecimenRequest {
  box: [number, number, number, number];
  kind?: SpecimenKind | undefined;
  ppd?: number | undefined;
  note?: string | undefined;
  /** the lab model that scores the box: null the default engine, absent the task's own (api.md) */
  model_id?: number | null | undefined;
}

/**
 * The review rules (api.md, Predictions): exclude/include a specimen, a reviewer's PPD, back to the
 * engine's value, a missed specimen added by its box, the history. Each change is one transaction through
 * the results' owner: the result row is read (and on PostgreSQL locked) inside it, so two reviewers'
 * changes apply one after the other and both are kept, in order. The engine's values are never written.
 */
export class ReviewService {
  private readonly results: ResultsRepository;

  constructor(private readonly ctx: AppContext) {
    this.results = new ResultsRepository(ctx.db.kysely);
  }

  private get postgres(): boolean {
    return this.ctx.db.dialect !== 'sqlite';
  }

  async patchSpecimen(
    resultId: number,
    index: number,
    patch: SpecimenPatch & { note?: string | undefined },
    who: Reviewer,
  ): Promise<PredictionResult> {
    await this.ctx.db.kysely.transaction().execute(async (trx) => {
      const owner = new ResultsRepository(trx);
      const found = await owner.getForReview(resultId, this.postgres);
      if (!found) throw notFound('Result');
      assertScored(found.row);
      const { specimens, changes } = patchSpecimen(parseStoredSpecimens(found.row.specimens), index, patch);
      if (changes.length === 0) return;
      const values = reviewedValues(specimens);
      await owner.saveReview(found.row, values, historyRows(found.row.id, changes, patch.note, who));
      await TaskState.moveBand(trx, found.row.task_id, found.row.ppd_value, values.ppdValue);
    });
    return this.get(resultId);
  }

  /**
   * Adds a specimen the engine missed. The box is checked against the image, the engine scores inside it
   * (unless the reviewer gives a PPD) and its images are stored before the transaction; a refusal at any
   * step removes them, so nothing is left behind.
   */
  /**
   * What the engine is told when it scores a box: the reviewer's kind (else the task's), and the model asked for
   * (a given model_id must be ready: 400 otherwise), else the task's own lab model while it is still ready.
   */
  private async boxOptions(input: AddSpecimenRequest, task: TaskRow | undefined): Promise<AnalyseOptions> {
    const kind = input.kind ?? (task?.specimen_kind as TaskSpecimenKind | undefined) ?? 'auto';
    const options: AnalyseOptions = { specimenKind: kind };
    const asked = input.model_id !== undefined ? await readyModel(this.ctx.db, input.model_id, 'specimen') : undefined;
    const modelId = asked === undefined ? (task?.model_id ?? null) : (asked?.id ?? null);
    const labModel = modelId === null ? null : await labModelOption(this.ctx, modelId);
    if (labModel) options.labModel = labModel;
    return options;
  }

  async addSpecimen(resultId: number, input: AddSpecimenRequest, who: Reviewer): Promise<PredictionResult> {
    const snapshot = await this.results.getForReview(resultId, false);
    if (!snapshot) throw notFound('Result');
    assertScored(snapshot.row);
    const image = snapshot.image;
    if (!image)
      throw new ApiError(
        409,
        'image_deleted',
        'The original image of this result was deleted: nothing to draw a box on',
      );
    const [x, y, w, h] = input.box;
    if (x + w > image.width || y + h > image.height) {
      throw new ApiError(
        400,
        'invalid',
        `The box must lie inside the image (${image.width} x ${image.height} pixels)`,
        {
          fields: { box: `outside the image (${image.width} x ${image.height})` },
        },
      );
    }
    const original = await this.ctx.storage.getBuffer(image.blob_key);
    if (!original) throw new ApiError(409, 'image_unreadable', 'The stored original could not be read');
    const crop = await cropBox(original, input.box);
    const task = await new TasksRepository(this.ctx.db.kysely).get(snapshot.row.task_id);
    const scored =
      input.ppd === undefined
        ? await scoreBox(
            this.ctx.engine,
            crop,
            storedTaskParameters(task?.parameters),
            await this.boxOptions(input, task),
          )
        : null;
    const cut = scored ? scored.cut : await cutImage(crop);
    const pred = scored ? scored.pred : cut;

    const base = addedSpecimenKeyBase(snapshot.row.task_id, snapshot.row.image_id, randomUUID());
    const cutKey = `${base}-cut.webp`;
    const predKey = scored ? `${base}-pred.webp` : cutKey;
    const keys = [...new Set([cutKey, predKey])];
    try {
      await this.ctx.storage.putBuffer(cutKey, cut, 'image/webp');
      if (predKey !== cutKey) await this.ctx.storage.putBuffer(predKey, pred, 'image/webp');
      await this.ctx.db.kysely.transaction().execute(async (trx) => {
        const owner = new ResultsRepository(trx);
        const found = await owner.getForReview(resultId, this.postgres);
        if (!found) throw notFound('Result');
        assertScored(found.row);
        const specimens = parseStoredSpecimens(found.row.specimens);
        const index = specimens.reduce((m, s) => Math.max(m, s.index), 0) + 1;
        const ppd = input.ppd ?? (scored as NonNullable<typeof scored>).ppd;
        const added: StoredSpecimen = {
          index,
          kind: input.kind ?? scored?.kind ?? 'root_slice',
          box: input.box,
          ppd: Math.round(ppd * 100) / 100,
          engine_ppd: scored ? scored.ppd : null,
          confidence: scored ? scored.confidence : null,
          needs_review: false,
          excluded: false,
          corrected: input.ppd !== undefined,
          source: 'reviewer',
          cut_key: cutKey,
          pred_key: predKey,
        };
        const values = reviewedValues([...specimens, added]);
        const change: ChangeMade = { index, change: 'added', from: null, to: added.ppd };
        await owner.saveReview(found.row, values, historyRows(found.row.id, [change], input.note, who));
        await TaskState.moveBand(trx, found.row.task_id, found.row.ppd_value, values.ppdValue);
      });
    } catch (err) {
      await this.ctx.storage
        .delete(keys)
        .catch((e: unknown) =>
          this.ctx.log.warn({ err: e, keys }, 'could not remove the images of a refused specimen'),
        );
      throw err;
    }
    return this.get(resultId);
  }

  async history(resultId: number): Promise<ReviewHistoryEntry[]> {
    if (!(await this.results.exists(resultId))) throw notFound('Result');
    const rows = await this.results.history(resultId);
    const names = await new UsersRepository(this.ctx.db.kysely).namesOf([
      ...new Set(rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id]))),
    ]);
    return rows.map((r) => ({
      time: r.created_at,
      index: r.specimen_index,
      change: r.change as ReviewChange,
      from: JSON.parse(r.from_value) as number | boolean | null,
      to: JSON.parse(r.to_value) as number | boolean | null,
      note: r.note,
      // A user removed since keeps their id (the name is gone with the account).
      user:
        r.user_id === null
          ? null
          : { id: r.user_id, ...(names.has(r.user_id) ? { username: names.get(r.user_id)! } : {}) },
    }));
  }

  private async get(id: number): Promise<PredictionResult> {
    const row = await this.results.get(id);
    if (!row) throw notFound('Result');
    return toResult(row, this.ctx.storage, await new TasksRepository(this.ctx.db.kysely).modelsOf([row.task_id]));
  }
}

function historyRows(
  resultId: ResultRow['id'],
  changes: ChangeMade[],
  note: string | undefined,
  who: Reviewer,
): NewReviewRow[] {
  const now = new Date().toISOString();
  const text = note?.trim() ? note.trim() : null;
  return changes.map((c) => ({
    result_id: resultId,
    specimen_index: c.index,
    change: c.change,
    from_value: JSON.stringify(c.from),
    to_value: JSON.stringify(c.to),
    note: text,
    user_id: who.userId,
    created_at: now,
  }));
}
