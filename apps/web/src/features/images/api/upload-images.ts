import type { UploadResponse } from '@cassavascope/contract';
import { uploadWithProgress } from '../../../lib/api-client';

export type DuplicateAction = 'skip' | 'overwrite';

export interface UploadOptions {
  folderId: number | null;
  checkDuplicate: boolean;
  duplicateAction?: DuplicateAction | undefined;
}

function baseForm(options: UploadOptions): FormData {
  const form = new FormData();
  if (options.folderId !== null) form.set('folder_id', String(options.folderId));
  form.set('check_duplicate', options.checkDuplicate ? '1' : '0');
  if (options.duplicateAction) form.set('duplicate_action', options.duplicateAction);
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
  return uploadWithProgress<UploadResponse>('/images/upload-files/', form, (percent) => {
    const sent = (percent / 100) * total;
    files.forEach((f, i) => {
      const done = f.size === 0 ? (sent >= (starts[i] ?? 0) ? 1 : 0) : (sent - (starts[i] ?? 0)) / f.size;
      // 99 at most until the server has answered: stored is only known from the response.
      onFileProgress(i, Math.max(0, Math.min(99, Math.round(done * 100))));
    });
  });
}

/** Uploads one ZIP archive; the server imports its image entries. */
export function uploadZip(file: File, options: UploadOptions, onProgress: (percent: number) => void): Promise<UploadResponse> {
  const form = baseForm(options);
  form.set('file', file, file.name);
  return uploadWithProgress<UploadResponse>('/images/upload-batch/', form, (p) => onProgress(Math.min(99, p)));
}
