/** What the upload dialog needs of an item to sum it up. */
export interface SizedItem {
  /** bytes; 0 when unknown */
  size: number;
  /** 0-100 */
  progress: number;
  status: string;
}

export interface UploadTotals {
  files: number;
  /** files no longer uploading (stored, skipped or failed) */
  filesDone: number;
  bytes: number;
  bytesDone: number;
  /** bytes per second since the upload started; null until measurable */
  speed: number | null;
  /** seconds left at that speed; null while unknown */
  secondsLeft: number | null;
}

/**
 * The upload as a whole (issue 15 item 12): files and bytes done of the total, the speed since it started and the
 * time left at that speed. Bytes done follow each file's real progress (the request body carries the files in
 * order).
 */
export function uploadTotals(items: SizedItem[], startedAt: number | null, now: number): UploadTotals {
  let bytes = 0;
  let bytesDone = 0;
  let filesDone = 0;
  for (const item of items) {
    bytes += item.size;
    bytesDone += item.status === 'uploading' ? (item.size * item.progress) / 100 : item.size;
    if (item.status !== 'uploading') filesDone += 1;
  }
  const elapsed = startedAt === null ? 0 : (now - startedAt) / 1000;
  const speed = elapsed >= 0.5 && bytesDone > 0 ? bytesDone / elapsed : null;
  const secondsLeft =
    speed === null ? null : filesDone === items.length ? 0 : Math.ceil(Math.max(0, bytes - bytesDone) / speed);
  return { files: items.length, filesDone, bytes, bytesDone, speed, secondsLeft };
}
