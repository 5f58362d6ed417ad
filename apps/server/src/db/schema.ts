import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Times are ISO-8601 UTC strings (sortable as text, identical in SQLite and PostgreSQL).
 * Booleans are 0/1 integers for the same reason.
 */
export interface FoldersTable {
  id: Generated<number>;
  name: string;
  /** lower-cased trimmed name: the unique key that makes names unique case-insensitively */
  name_key: string;
  description: string;
  created_at: string;
}

export interface ImagesTable {
  id: Generated<number>;
  name: string;
  /** name lower-cased in JS (Unicode-aware, unlike SQLite's lower()): what `search` matches with LIKE */
  name_lower: string;
  folder_id: number | null;
  size: number;
  format: string;
  width: number;
  height: number;
  sha256: string;
  /** storage key of the original bytes */
  blob_key: string;
  /** storage key of the 400 px WebP thumbnail */
  thumb_key: string;
  created_at: string;
  /** denormalised from the newest completed prediction result (null when none) */
  ppd_value: number | null;
  last_prediction: string | null;
  last_result_id: number | null;
}

export interface Database {
  folders: FoldersTable;
  images: ImagesTable;
}
