import { ApiError, apiUrl, errorFromResponse, type QueryValue } from '../../../lib/api-client';
import { resultFilterQuery, type ResultFilter } from './get-results-page';

/**
 * A big export takes longer than the API's 10 s (the server streams 100 000 rows in about a second, the network
 * may be slow); a stalled connection still ends in an error rather than a spinner forever.
 */
export const EXPORT_TIMEOUT_MS = 5 * 60_000;

/** How long the saved file's object URL lives: the browser reads it once the download starts. */
const REVOKE_AFTER_MS = 60_000;

/**
 * What the Export button offers: one row per image (`results`, the default) or one row per specimen (`specimens`:
 * index, kind, box, the engine's and the reviewed value, excluded, the review note, band).
 */
export type ExportFormat = 'results' | 'specimens';

/** prediction_results_{taskId or all}_{YYYY-MM-DD}.csv, the date in UTC as the server names it. */
export function exportFileName(taskId: number | null, now: Date = new Date()): string {
  return `prediction_results_${taskId ?? 'all'}_${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The file name of a `Content-Disposition` header: RFC 5987 `filename*=UTF-8''...` first, then `filename="..."`
 * or a bare `filename=...`; folders are stripped. Null when there is none.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]?.trim() ?? null) : null;
  }
  const base = name?.split(/[/\\]/).pop()?.trim();
  return base ? base : null;
}

/** Saves a blob under a name: an `<a download>` click on its object URL (the browser's download, no new tab). */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/**
 * Fetches the CSV the server builds (`GET /api/predictions/export/`, per image or with `format=specimens` per
 * specimen: UTF-8 with BOM, the columns of api.md),
 * checks the answer, and saves it under the server's file name (else `exportFileName`). Resolves with that name
 * once the file is handed to the browser; rejects with an ApiError (bad status, network error, timeout).
 */
export function exportResults(filter: ResultFilter, format: ExportFormat = 'results'): Promise<string> {
  // The screen's filter (task, search, severity...): the file holds the results the researcher is looking at.
  const query = resultFilterQuery(filter);
  return downloadCsv(
    '/predictions/export/',
    format === 'specimens' ? { ...query, format } : query,
    exportFileName(filter.taskId),
  );
}

/** The group table of the "By group" view (`GET /api/predictions/groups/export/`), the same way. */
export function exportGroups(filter: ResultFilter, by: string[]): Promise<string> {
  return downloadCsv(
    '/predictions/groups/export/',
    { ...resultFilterQuery(filter), by: by.join(',') },
    exportFileName(filter.taskId).replace('prediction_results_', 'prediction_groups_'),
  );
}

async function downloadCsv(path: string, query: Record<string, QueryValue>, fallbackName: string): Promise<string> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, EXPORT_TIMEOUT_MS);
  try {
    let res: Response;
    let blob: Blob;
    try {
      res = await fetch(apiUrl(path, query), {
        headers: { Accept: 'text/csv' },
        signal: controller.signal,
      });
      if (!res.ok) throw errorFromResponse(res.status, await res.text());
      blob = await res.blob();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (timedOut) throw new ApiError(0, 'timeout', `Export timed out after ${EXPORT_TIMEOUT_MS / 1000} s`);
      throw new ApiError(0, 'network_error', err instanceof Error ? err.message : 'Network error');
    }
    const name = fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName;
    saveBlob(blob, name);
    return name;
  } finally {
    clearTimeout(timer);
  }
}
