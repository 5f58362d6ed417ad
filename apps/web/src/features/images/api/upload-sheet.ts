import { metadataSheetResponseSchema, type MetadataSheetResponse } from '@cassavascope/contract';
import { uploadWithProgress } from '../../../lib/api-client';

/** A field-book sheet given with an upload: CSV or Excel, by its extension or type. */
export function isSheetFile(file: File): boolean {
  return (
    /\.(csv|xlsx)$/i.test(file.name) ||
    file.type === 'text/csv' ||
    file.type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  );
}

export interface SheetRequest {
  /** the images the names are looked up among (those this upload stored) */
  imageIds?: number[];
  /** apply the good rows even when some have bad values */
  partial?: boolean;
  /** read and match only, store nothing */
  dryRun?: boolean;
}

/** `POST /images/metadata/sheet/` with the upload's additions (`image_ids`, `dry_run`; docs/api.md). */
export function sendSheet(file: File, request: SheetRequest): Promise<MetadataSheetResponse> {
  const form = new FormData();
  form.append('file', file, file.name);
  if (request.imageIds) form.append('image_ids', request.imageIds.join(','));
  if (request.partial) form.append('partial', '1');
  if (request.dryRun) form.append('dry_run', '1');
  return uploadWithProgress('/images/metadata/sheet/', form, () => undefined, undefined, metadataSheetResponseSchema);
}
