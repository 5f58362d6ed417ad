/**
 * True for the ways a full disk or object store shows: ENOSPC/EDQUOT from the file system (also from sharp,
 * which reports them in its message), SQLITE_FULL, PostgreSQL's disk_full (53100), and an object store's
 * 507 or storage-full code. Checks the error's `cause` chain too.
 */
export function isStorageFull(err: unknown): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const x = e as { code?: unknown; name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number } };
    if (x.code === 'ENOSPC' || x.code === 'EDQUOT' || x.code === 'SQLITE_FULL' || x.code === '53100') return true;
    if (x.name === 'XMinioStorageFull' || x.name === 'StorageFull' || x.$metadata?.httpStatusCode === 507) return true;
    if (
      typeof x.message === 'string' &&
      /no space left on device|database or disk is full|disk quota exceeded/i.test(x.message)
    )
      return true;
  }
  return false;
}

export const STORAGE_FULL_DETAIL =
  'The disk (or the object store) is full: nothing was written. Free space, e.g. by deleting images or tasks.';
