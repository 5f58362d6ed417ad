import { apiUrl } from '../../../lib/api-client';

/** prediction_results_{taskId or all}_{YYYY-MM-DD}.csv, the date in UTC as the server names it. */
export function exportFileName(taskId: number | null, now: Date = new Date()): string {
  return `prediction_results_${taskId ?? 'all'}_${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Downloads the CSV the server streams (`/api/predictions/export/`: UTF-8 with BOM, the columns of api.md).
 * The browser saves it straight to disk, so 100 000 rows never sit in the page's memory.
 */
export function exportResults(taskId: number | null): string {
  const name = exportFileName(taskId);
  const link = document.createElement('a');
  link.href = apiUrl('/predictions/export/', { task_id: taskId ?? undefined });
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  return name;
}
