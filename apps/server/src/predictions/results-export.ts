import { Readable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { EXPORT_PAGE, ResultsRepository, type ResultFilter } from './results.repository.js';

export const EXPORT_COLUMNS = [
  'image_name',
  'ppd_value',
  'confidence',
  'prediction',
  'processing_time',
  'sub_ppd_values',
  'task_id',
  'error_code',
] as const;

/** One CSV row's values, in EXPORT_COLUMNS order (sub_ppd_values still as its stored JSON), then the row id (not written). */
type ExportRow = [string, number | null, number | null, string | null, number | null, string, number, string | null, number];

/** What an export holds: a task's results (or all), optionally narrowed as the Results screen shows them. */
export type ExportFilter = Pick<ResultFilter, 'taskId' | 'search' | 'severity'>;

/** `prediction_results_{taskId or all}_{YYYY-MM-DD}.csv`, the date in UTC. */
export function exportFileName(taskId: number | undefined, now = new Date()): string {
  return `prediction_results_${taskId ?? 'all'}_${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The CSV as a stream: UTF-8 BOM (Excel then reads Chinese names correctly), a header, then the rows
 * a page at a time, so memory stays flat however many results there are.
 */
export function exportCsvStream(db: Db, filter: ExportFilter): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`;
    const pages = db.dialect === 'sqlite' ? sqlitePages(db, filter) : keysetPages(db, filter);
    for await (const rows of pages) yield rows.map(csvLine).join('');
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** PostgreSQL (and any Kysely database): keyset pages on id through the shared pool. */
async function* keysetPages(db: Db, filter: ExportFilter): AsyncGenerator<ExportRow[]> {
  const repo = new ResultsRepository(db.kysely);
  let afterId = 0;
  for (;;) {
    const rows = await repo.exportPage(filter, afterId);
    if (rows.length === 0) return;
    yield rows.map((r) => [r.image_name, r.ppd_value, r.confidence, r.prediction, r.processing_time, r.sub_ppd_values, r.task_id, r.error_code, r.id]);
    afterId = (rows[rows.length - 1] as { id: number }).id;
    if (rows.length < EXPORT_PAGE) return;
  }
}

/**
 * SQLite: a private read-only connection with a small page cache reads one consistent snapshot (WAL)
 * row by row. The shared connection stays free for other requests, and its large page cache is not
 * filled with result rows nobody else needs.
 */
async function* sqlitePages(db: Db, filter: ExportFilter): AsyncGenerator<ExportRow[]> {
  const list = await sql<{ name: string; file: string }>`pragma database_list`.execute(db.kysely);
  const file = list.rows.find((r) => r.name === 'main')?.file;
  if (!file) {
    yield* keysetPages(db, filter);
    return;
  }
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    reader.pragma('cache_size = -2048');
    // The repository's one query (same filters as the listing), compiled and run on the private connection.
    const query = new ResultsRepository(db.kysely).exportQuery(filter).compile();
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

const num = (v: number | null) => (v === null ? '' : String(v));

function csvLine(r: ExportRow): string {
  const subs = (JSON.parse(r[5]) as number[]).join(' / ');
  return `${csvText(r[0])},${num(r[1])},${num(r[2])},${r[3] ?? ''},${num(r[4])},${csvText(subs)},${r[6]},${csvText(r[7] ?? '')}\r\n`;
}

/**
 * Quotes a text cell when needed (RFC 4180). A cell starting with = + - @ (a formula to a spreadsheet)
 * gets a leading apostrophe so opening the file never runs anything.
 */
function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
