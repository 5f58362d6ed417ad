import { uploadResponseSchema, type UploadResponse } from '@cassavascope/contract';
import { apiRequest, uploadWithProgress } from '../../../lib/api-client';

/** What to do with duplicates: leave them out, replace the image of the same name, or store both (`name (2).jpg`). */
export type DuplicateAction = 'skip' | 'overwrite' | 'keep_both';

export interface UploadOptions {
  folderId: number | null;
  checkDuplicate: boolean;
  duplicateAction?: DuplicateAction | undefined;
}

/** How a file of a 409 matched (`matches`, an addition of this server), and the image it matched. */
export interface DuplicateMatch {
  name: string;
  by: 'name' | 'content' | 'name_and_content' | 'request';
  existing: { id: number; name: string; folder_id: number | null } | null;
}

/** A 409 `matches` list as sent, or [] from a server without it. */
export function duplicateMatches(body: Record<string, unknown>): DuplicateMatch[] {
  const raw = body.matches;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m): DuplicateMatch[] => {
    if (!m || typeof m !== 'object') return [];
    const r = m as Record<string, unknown>;
    const by = r.by === 'name' || r.by === 'content' || r.by === 'name_and_content' || r.by === 'request' ? r.by : null;
    if (typeof r.name !== 'string' || !by) return [];
    const e = r.existing as Record<string, unknown> | null | undefined;
    const existing =
      e && typeof e.id === 'number' && typeof e.name === 'string'
        ? { id: e.id, name: e.name, folder_id: typeof e.folder_id === 'number' ? e.folder_id : null }
        : null;
    return [{ name: r.name, by, existing }];
  });
}

/** Storing the choice after a 409 can take a while (a large ZIP's entries): no 10 s timeout for it. */
const RESUME_TIMEOUT_MS = 30 * 60_000;

/**
 * The choice after a resumable 409 (`upload_token`): the server stores the files it kept with that action, so the
 * bytes are not sent again. A 410 `upload_expired` means they are gone: the caller sends the files again.
 */
export function resumeUpload(token: string, action: DuplicateAction): Promise<UploadResponse> {
  return apiRequest<UploadResponse>('/images/upload-resume/', {
    method: 'POST',
    body: { upload_token: token, duplicate_action: action },
    timeoutMs: RESUME_TIMEOUT_MS,
    schema: uploadResponseSchema,
  });
}

function baseForm(options: UploadOptions): FormData {
  const form = new FormData();
  if (options.folderId !== null) form.set('folder_id', String(options.folderId));
  form.set('check_duplicate', options.checkDuplicate ? '1' : '0');
  if (options.duplicateAction) form.set('duplicate_action', options.duplicateAction);
  // A 409 then carries an upload_token: the choice that follows does not send the bytes again.
  else if (options.checkDuplicate) form.set('resumable', '1');
  return form;
}

/**
 * Uploads images in one multipart request. Per-file progress is real: the body carries the files in order,
 * so the bytes sent so far tell how far each file is (`onFileProgress(index, percent)`).
 */
export function uploadImageFiles(
  files: File[],
  options: UploadOptions,
  onFileProgress: (index: number, percent: number) => void,
): Promise<UploadResponse> {
  const form = baseForm(options);
  for (const f of files) form.append('files', f, f.name);
  const total = files.reduce((s, f) => s + f.size, 0) || 1;
  const starts: number[] = [];
  let acc = 0;
  for (const f of files) {
    starts.push(acc);
    acc += f.size;
  }
  return uploadWithProgress<UploadResponse>(
    '/images/upload-files/',
    form,
    (percent) => {
      const sent = (percent / 100) * total;
      files.forEach((f, i) => {
        const done = f.size === 0 ? (sent >= (starts[i] ?? 0) ? 1 : 0) : (sent - (starts[i] ?? 0)) / f.size;
        // 99 at most until the server has answered: stored is only known from the response.
        onFileProgress(i, Math.max(0, Math.min(99, Math.round(done * 100))));
      });
    },
    undefined,
    uploadResponseSchema,
  );
}

/** Uploads one ZIP archive; the server imports its image entries. */
export function uploadZip(
  file: File,
  options: UploadOptions,
  onProgress: (percent: number) => void,
): Promise<UploadResponse> {
  const form = baseForm(options);
  form.set('file', file, file.name);
  return uploadWithProgress<UploadResponse>(
    '/images/upload-batch/',
    form,
    (p) => onProgress(Math.min(99, p)),
    undefined,
    uploadResponseSchema,
  );
}
