import { Readable } from 'node:stream';
import SQLite from 'better-sqlite3';
import type { Db } from '../db/database.js';
import { sqliteMainFile } from '../db/sqlite-file.js';
import { EXPORT_PAGE, ResultsRepository, type ExportFormat, type ResultFilter } from './results.repository.js';
import { parseStoredSpecimens } from './stored-specimens.js';
import {
  exportColumnOf,
  PPD_TRAIT_COLUMN,
  severityOf,
  WELL_KNOWN_FIELDS,
  type ImageMetadata,
} from '@cassavascope/contract';
import { MetadataRepository } from '../metadata/metadata.repository.js';
import { TasksRepository } from '../tasks/tasks.repository.js';

/** The result CSV: the seed's eight columns first (unchanged), then the engine's value, review state and specimen count. */
export const EXPORT_COLUMNS = [
  'image_name',
  'ppd_value',
  'confidence',
  'prediction',
  'processing_time',
  'sub_ppd_values',
  'task_id',
  'error_code',
  'engine_ppd_value',
  'reviewed',
  'specimen_count',
] as const;

/** After EXPORT_COLUMNS: the task's lab model (empty: the default engine) and what its photos show (issues 22, 23). */
export const ENGINE_CHOICE_COLUMNS = ['model_name', 'specimen_kind'] as const;

/** `format=specimens`: one row per specimen. */
export const SPECIMEN_EXPORT_COLUMNS = [
  'image_name',
  'task_id',
  'index',
  'kind',
  'ppd',
  'engine_ppd',
  'confidence',
  'excluded',
  'corrected',
  'needs_review',
] as const;

/**
 * After SPECIMEN_EXPORT_COLUMNS (issue 25): the box in original pixels (`x y w h`), the specimen's latest review
 * note, the image's id, and the band of the specimen's value (healthy, mild, severe; empty without a value).
 */
export const SPECIMEN_DETAIL_COLUMNS = ['box', 'note', 'image_id', 'band'] as const;

/** The columns each format's query selects, in order (the last two, the image and row ids, are not written). */
const QUERY_COLUMNS: Record<ExportFormat, readonly string[]> = {
  results: [...EXPORT_COLUMNS, 'image_id', 'id'],
  specimens: ['image_name', 'task_id', 'specimens', 'image_id', 'id'],
};
/** Where each format's row carries the image id (for its sample fields). */
const IMAGE_ID_AT: Record<ExportFormat, number> = { results: EXPORT_COLUMNS.length, specimens: 3 };

/** Where a results row carries its task id. */
const TASK_ID_AT = EXPORT_COLUMNS.indexOf('task_id');

/** One row of the export query, values in QUERY_COLUMNS order (sub_ppd_values and specimens still as stored JSON). */
type ExportRow = unknown[];

/** What an export holds: a task's results (or all), narrowed as the Results screen shows them. */
export type ExportFilter = Pick<ResultFilter, 'taskId' | 'search' | 'severity' | 'needsReview' | 'reviewed' | 'meta'>;

/** The sample fields in use, as export columns: the well-known ones in their order, then the others by name. */
async function exportFields(db: Db): Promise<string[]> {
  const inUse = (await new MetadataRepository(db.kysely).fieldNames()).map((f) => f.field);
  const known = WELL_KNOWN_FIELDS.map((w) => w.field as string).filter((f) => inUse.includes(f));
  return [...known, ...inUse.filter((f) => !known.includes(f)).sort()];
}

/** `prediction_results_{taskId or all}_{YYYY-MM-DD}.csv`, the date in UTC. */
export function exportFileName(taskId: number | undefined, now = new Date()): string {
  return `prediction_results_${taskId ?? 'all'}_${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The CSV as a stream: UTF-8 BOM (Excel then reads Chinese names correctly), a header, then the rows
 * a page at a time, so memory stays flat however many results there are.
 */
export function exportCsvStream(db: Db, filter: ExportFilter, format: ExportFormat = 'results'): Readable {
  const header =
    format === 'specimens'
      ? [...SPECIMEN_EXPORT_COLUMNS, ...SPECIMEN_DETAIL_COLUMNS]
      : [...EXPORT_COLUMNS, ...ENGINE_CHOICE_COLUMNS];
  const fieldsRepo = new MetadataRepository(db.kysely);
  const resultsRepo = new ResultsRepository(db.kysely);
  const tasksRepo = new TasksRepository(db.kysely);
  async function* chunks(): AsyncGenerator<string> {
    // After the fixed columns: (per result) the lab model's name and the specimen kind, the PPD under its trait id, then each sample field under its
    // ontology name. The specimen rows' own `ppd` is the slice's score; their columns stay as api.md lists them.
    const fields = await exportFields(db);
    const trait = format === 'results' ? [PPD_TRAIT_COLUMN] : [];
    yield `\uFEFF${[...header, ...trait, ...fields.map(exportColumnOf)].map(csvText).join(',')}\r\n`;
    const pages = db.dialect === 'sqlite' ? sqlitePages(db, filter, format) : keysetPages(db, filter, format);
    for await (const rows of pages) {
      const metadata =
        fields.length > 0
          ? await fieldsRepo.metadataOf([...new Set(rows.map((r) => Number(r[IMAGE_ID_AT[format]])))])
          : new Map();
      const choices =
        format === 'results' ? await tasksRepo.engineChoicesOf(rows.map((r) => Number(r[TASK_ID_AT]))) : null;
      const notes = format === 'specimens' ? await resultsRepo.latestNotes(rows.map((r) => Number(r[4]))) : null;
      yield rows
        .map((r) => {
          const samples = sampleCells(fields, metadata.get(Number(r[IMAGE_ID_AT[format]])));
          return notes
            ? specimenLines(r, samples, notes)
            : resultLine(r, samples, choices ? choiceCells(choices.get(Number(r[TASK_ID_AT]))) : '');
        })
        .join('');
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Rows per page: a specimens row carries every specimen's JSON, so its pages are smaller. */
const pageSize = (format: ExportFormat) => (format === 'specimens' ? 500 : EXPORT_PAGE);

/** PostgreSQL (and any Kysely database): keyset pages on id through the shared pool. */
async function* keysetPages(db: Db, filter: ExportFilter, format: ExportFormat): AsyncGenerator<ExportRow[]> {
  const repo = new ResultsRepository(db.kysely);
  const columns = QUERY_COLUMNS[format];
  const limit = pageSize(format);
  let afterId = 0;
  for (;;) {
    const rows = await repo.exportPage(filter, afterId, format, limit);
    if (rows.length === 0) return;
    yield rows.map((r) => columns.map((c) => r[c]));
    afterId = Number(rows[rows.length - 1]!.id);
    if (rows.length < limit) return;
  }
}

/**
 * SQLite: a private read-only connection with a small page cache reads one consistent snapshot (WAL)
 * row by row. The shared connection stays free for other requests, and its large page cache is not
 * filled with result rows nobody else needs.
 */
async function* sqlitePages(db: Db, filter: ExportFilter, format: ExportFormat): AsyncGenerator<ExportRow[]> {
  const file = await sqliteMainFile(db);
  if (!file) {
    yield* keysetPages(db, filter, format);
    return;
  }
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    reader.pragma('cache_size = -2048');
    // The repository's one query (same filters as the listing), compiled and run on the private connection.
    const query = new ResultsRepository(db.kysely).exportQuery(filter, format).compile();
    const stmt = reader.prepare(query.sql);
    const iterator = stmt.raw(true).iterate(...(query.parameters as unknown[])) as IterableIterator<ExportRow>;
    let page: ExportRow[] = [];
    for (const row of iterator) {
      page.push(row);
      if (page.length === SQLITE_PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  } finally {
    reader.close();
  }
}

/** Rows read per turn of the event loop: small, so other requests are never held up for long. */
const SQLITE_PAGE = 500;

/** The sample-field cells of one row (empty where the image lacks a field), each led by a comma. */
function sampleCells(fields: string[], metadata: ImageMetadata | undefined): string {
  return fields
    .map(
      (f) =>
        `,${metadata?.[f] === undefined ? '' : typeof metadata[f] === 'number' ? String(metadata[f]) : csvText(String(metadata[f]))}`,
    )
    .join('');
}

/** The model_name and specimen_kind cells of a result's task, each led by a comma. */
function choiceCells(c: { specimenKind: string; modelName: string | null } | undefined): string {
  return `,${csvText(c?.modelName ?? '')},${c?.specimenKind ?? 'auto'}`;
}

const num = (v: unknown) => (v === null || v === undefined ? '' : String(Number(v)));
const bool = (v: unknown) => (v === true || v === 1 || v === '1' ? 'true' : 'false');

/**
 * image_name, ppd_value, confidence, prediction, processing_time, sub_ppd_values, task_id, error_code, engine_ppd_value,
 * reviewed, specimen_count, `cells` (model_name, specimen_kind), then the PPD again under its trait id and the
 * sample cells.
 */
function resultLine(r: ExportRow, samples: string, cells: string): string {
  const subs = (JSON.parse(r[5] as string) as number[]).join(' / ');
  const first = `${csvText(r[0] as string)},${num(r[1])},${num(r[2])},${(r[3] as string | null) ?? ''},${num(r[4])},${csvText(subs)},${r[6]},${csvText((r[7] as string | null) ?? '')}`;
  return `${first},${num(r[8])},${bool(r[9])},${Number(r[10] ?? 0)}${cells},${num(r[1])}${samples}\r\n`;
}

/**
 * One line per specimen of the result: image_name, task_id, index, kind, ppd, engine_ppd, confidence, excluded,
 * corrected, needs_review, then box, note, image_id, band and the sample cells. An excluded specimen is a row too.
 */
function specimenLines(r: ExportRow, samples: string, notes: Map<string, string>): string {
  const name = csvText(r[0] as string);
  let out = '';
  for (const s of parseStoredSpecimens(r[2] as string)) {
    const box = Array.isArray(s.box) ? s.box.map((v) => String(Math.round(Number(v)))).join(' ') : '';
    const note = csvText(notes.get(`${r[4]}:${s.index}`) ?? '');
    const band = typeof s.ppd === 'number' && Number.isFinite(s.ppd) ? severityOf(s.ppd) : '';
    out += `${name},${r[1]},${s.index},${csvText(String(s.kind))},${num(s.ppd)},${num(s.engine_ppd)},${num(s.confidence)},${bool(s.excluded)},${bool(s.corrected)},${bool(s.needs_review)},${box},${note},${r[3]},${band}${samples}\r\n`;
  }
  return out;
}

/**
 * Quotes a text cell when needed (RFC 4180). A cell starting with = + - @ (a formula to a spreadsheet)
 * gets a leading apostrophe so opening the file never runs anything.
 */
function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
