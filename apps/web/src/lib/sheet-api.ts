import { metadataSheetResponseSchema, type MetadataSheetResponse } from '@cassavascope/contract';
import { uploadWithProgress } from './api-client';

/** A field-book sheet: CSV or Excel, by its extension or type. */
export function isSheetFile(file: File): boolean {
  return (
    /\.(csv|xlsx)$/i.test(file.name) ||
    file.type === 'text/csv' ||
    file.type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  );
}

export interface SheetRequest {
  /** the folder the names are looked up in (absent or null: the whole library) */
  folderId?: number | null;
  /** the images the names are looked up among (those an upload stored) */
  imageIds?: number[];
  /** apply the good rows even when some have bad values */
  partial?: boolean;
  /** read and match only, store nothing */
  dryRun?: boolean;
  /** the upload's progress, 0-100 */
  onProgress?: (percent: number) => void;
}

/**
 * `POST /images/metadata/sheet/`, from Samples (a folder's images) and from an upload (`image_ids`, `dry_run`:
 * additions, docs/api.md).
 */
export function sendSheet(file: File, request: SheetRequest): Promise<MetadataSheetResponse> {
  const form = new FormData();
  form.append('file', file, file.name);
  if (request.folderId != null) form.append('folder_id', String(request.folderId));
  if (request.imageIds) form.append('image_ids', request.imageIds.join(','));
  if (request.partial) form.append('partial', '1');
  if (request.dryRun) form.append('dry_run', '1');
  return uploadWithProgress(
    '/images/metadata/sheet/',
    form,
    request.onProgress ?? (() => undefined),
    undefined,
    metadataSheetResponseSchema,
  );
}
