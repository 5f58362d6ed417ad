import type { Readable } from 'node:stream';

/**
 * Where originals, thumbnails and result images live. Keys are relative, slash-separated and
 * validated by `isValidKey` (no `..`, no absolute paths): no request path ever becomes a file path.
 * Two implementations: local files under DATA_DIR/blobs (embedded default) and S3-compatible storage.
 */
export interface BlobStorage {
  readonly kind: 'local' | 's3';
  /** Moves (local) or uploads (S3) a finished temp file to `key`. The temp file is gone afterwards. */
  putFile(key: string, tempFilePath: string, contentType: string): Promise<void>;
  /** Stores bytes at `key`, atomically: readers see the old object or the whole new one. */
  putBuffer(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Opens a stored object for reading, or null when it does not exist. */
  get(key: string): Promise<{ stream: Readable; size: number; contentType: string } | null>;
  /** Opens bytes `start`..`end` (inclusive) of a stored object, for HTTP Range requests (optional). */
  getRange?(key: string, start: number, end: number): Promise<Readable | null>;
  /** Reads a whole stored object (for the engine; originals are bounded by MAX_UPLOAD_MB). */
  getBuffer(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes objects; missing keys are not an error. */
  delete(keys: string[]): Promise<void>;
  /** Deletes every object under `prefix` (a folder of its own, e.g. `pending/<token>/`) with the folder itself (local files). */
  deletePrefix?(prefix: string): Promise<void>;
  /** Lists every key under a prefix (for orphan sweeps and migration). */
  list(prefix: string): AsyncIterable<string>;
  /** The same with each object's last-modified time (ms since the epoch), for the orphan sweep's grace. */
  listWithTimes?(prefix: string): AsyncIterable<{ key: string; modified: number | undefined }>;
  /** A short-lived URL of the object store itself that lets anyone holding it read `key` (object storage only). */
  presignedUrl?(key: string, seconds: number): Promise<string>;
  /** The URL a browser uses: `/media/<key>` or `${OSS_BASE_URL}/<key>`. */
  url(key: string): string;
  /** A local folder for temp files on the same filesystem as the local store (so rename is atomic). */
  readonly tempDir: string;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;

export function isValidKey(key: string): boolean {
  return key.length <= 512 && KEY_PATTERN.test(key) && !key.split('/').some((p) => p === '.' || p === '..');
}

export function contentTypeForKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
};
