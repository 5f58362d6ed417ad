import { Readable } from 'node:stream';
import { EXPORT_PAGE, type ResultsRepository } from './results.repository.js';

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

/** `prediction_results_{taskId or all}_{YYYY-MM-DD}.csv`, the date in UTC. */
export function exportFileName(taskId: number | undefined, now = new Date()): string {
  return `prediction_results_${taskId ?? 'all'}_${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The CSV as a stream: UTF-8 BOM (Excel then reads Chinese names correctly), a header, then the rows
 * in keyset pages, so memory stays flat however many results there are.
 */
export function exportCsvStream(repo: ResultsRepository, taskId: number | undefined): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`;
    let afterId = 0;
    for (;;) {
      const rows = await repo.exportPage(taskId, afterId);
      if (rows.length === 0) return;
      let chunk = '';
      for (const r of rows) {
        const subs = (JSON.parse(r.sub_ppd_values) as number[]).join(' / ');
        chunk += `${[
          csvText(r.image_name),
          num(r.ppd_value),
          num(r.confidence),
          r.prediction ?? '',
          num(r.processing_time),
          csvText(subs),
          String(r.task_id),
          csvText(r.error_code ?? ''),
        ].join(',')}\r\n`;
      }
      yield chunk;
      afterId = (rows[rows.length - 1] as { id: number }).id;
      if (rows.length < EXPORT_PAGE) return;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

const num = (v: number | null) => (v === null ? '' : String(v));

/**
 * Quotes a text cell when needed (RFC 4180). A cell starting with = + - @ (a formula to a spreadsheet)
 * gets a leading apostrophe so opening the file never runs anything.
 */
function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
