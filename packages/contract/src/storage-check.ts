import { z } from 'zod';

/**
 * The storage check (issue 26, point 6): every stored file read against the row that names it, and every stored
 * file against a row. `GET /status/` carries the summary of the last check (`storage_check`), `GET
 * /storage-check/` the last check with its problems, `POST /storage-check/` (admin) starts one now.
 */

/** missing: a row names a file that is not stored; corrupt: its bytes are not the ones recorded; untracked: no row names the file. */
export type StorageProblemKind = 'missing' | 'corrupt' | 'untracked';
export const STORAGE_PROBLEM_KINDS: readonly StorageProblemKind[] = ['missing', 'corrupt', 'untracked'];

/** What a stored file is: an image's original or thumbnail, a result's picture, a label image, a lab model's file. */
export type StorageProblemFile = 'original' | 'thumbnail' | 'result' | 'label' | 'model' | 'other';
export const STORAGE_PROBLEM_FILES: readonly StorageProblemFile[] = [
  'original',
  'thumbnail',
  'result',
  'label',
  'model',
  'other',
];

/** One problem: the stored key, what it is, and the row that names it (image, result or model id and name). */
export interface StorageProblem {
  kind: StorageProblemKind;
  key: string;
  file: StorageProblemFile;
  /** the image (original, thumbnail, label), result or model that names the file; null for an untracked file */
  id: number | null;
  name: string | null;
  /** corrupt: what the row records (sha256 only for originals: they are named by it) */
  expected?: { sha256: string | null; size: number };
  /** corrupt: what was read */
  actual?: { sha256: string | null; size: number };
}

/** `GET /status/` `storage_check`: the last finished check (`checked_at` null before the first one). */
export interface StorageCheckSummary {
  checked_at: string | null;
  missing: number;
  corrupt: number;
  untracked: number;
  /** stored files the rows name that were checked */
  files: number;
  /** a check is running now */
  running: boolean;
  /** why the last check could not finish (its counts are what it found until then); null when it finished */
  error: string | null;
}

/** `GET /storage-check/`: the summary, the run in progress, and the first problems of the last check. */
export interface StorageCheck extends StorageCheckSummary {
  /** when the check running now (or the last one) started */
  started_at: string | null;
  /** what started the last finished check */
  trigger: 'schedule' | 'manual' | 'command' | null;
  /** bytes read and hashed */
  bytes: number;
  /** the first problems (at most 100); `missing + corrupt + untracked` counts them all */
  problems: StorageProblem[];
  /** hours between scheduled checks (STORAGE_CHECK_HOURS); 0 when the server runs none */
  interval_hours: number;
}

const count = z.number().int().min(0);
const time = z
  .string()
  .meta({ description: 'ISO 8601 time in UTC, ending in Z', examples: ['2026-11-21T10:02:00.000Z'] });

export const storageProblemSchema = z.object({
  kind: z.enum(['missing', 'corrupt', 'untracked']),
  key: z.string(),
  file: z.enum(['original', 'thumbnail', 'result', 'label', 'model', 'other']),
  id: z.number().int().nullable(),
  name: z.string().nullable(),
  expected: z.object({ sha256: z.string().nullable(), size: count }).optional(),
  actual: z.object({ sha256: z.string().nullable(), size: count }).optional(),
});

export const storageCheckSummarySchema = z.object({
  checked_at: time.nullable(),
  missing: count,
  corrupt: count,
  untracked: count,
  files: count,
  running: z.boolean(),
  error: z.string().nullable(),
});

export const storageCheckSchema = storageCheckSummarySchema.extend({
  started_at: time.nullable(),
  trigger: z.enum(['schedule', 'manual', 'command']).nullable(),
  bytes: count,
  problems: z.array(storageProblemSchema),
  interval_hours: z.number().min(0),
});

// Compile-time: what a schema accepts is a value of the type the clients use.
type Assignable<From, To> = [From] extends [To] ? true : false;
const typeChecks: [
  Assignable<z.output<typeof storageProblemSchema>, StorageProblem>,
  Assignable<z.output<typeof storageCheckSummarySchema>, StorageCheckSummary>,
  Assignable<z.output<typeof storageCheckSchema>, StorageCheck>,
] = [true, true, true];
void typeChecks;
