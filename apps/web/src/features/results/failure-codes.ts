/** Failure codes with their own explanation (results.json `failure.<code>`); others get the generic one. */
export const EXPLAINED_FAILURES: ReadonlySet<string> = new Set([
  'not_a_specimen_photo',
  'no_specimen_found',
  'decode_failed',
  'image_deleted',
  'image_unreadable',
  'engine_error',
  'engine_timeout',
  'storage_full',
  'image_too_large',
  'file_not_found',
]);
