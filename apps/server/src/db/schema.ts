import type { ColumnType, Generated } from 'kysely';

/**
 * Table types for Kysely. Times are ISO-8601 UTC strings (sortable as text, identical in SQLite and PostgreSQL).
 * Booleans are 0/1 integers for the same reason.
 */
export interface FoldersTable {
  id: Generated<number>;
  name: string;
  /** lower-cased trimmed name: the unique key that makes names unique case-insensitively */
  name_key: string;
  /** the name's natural sort key (images/name-sort.ts): what `GET /folders/` orders by (migration 0013) */
  name_sort: Generated<string>;
  description: string;
  created_at: string;
}

export interface ImagesTable {
  id: Generated<number>;
  name: string;
  /** name lower-cased in JS (Unicode-aware, unlike SQLite's lower()): what `search` matches with LIKE */
  name_lower: string;
  /** what `ordering=name` sorts by (images/name-sort.ts; migration 0009); written by ImagesRepository.insert */
  name_sort: Generated<string>;
  folder_id: number | null;
  /** the folder's name_key, '' when uncategorised (what ordering=folder sorts by) */
  folder_sort: Generated<string>;
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

/** A prediction task. JSON columns (`image_ids`, `parameters`) are text in both databases. */
export interface TasksTable {
  id: Generated<number>;
  name: string;
  name_lower: string;
  type: string;
  status: string;
  algorithm: string;
  model_type: string;
  image_ids: string;
  image_count: number;
  parameters: string;
  processed_count: Generated<number>;
  failed_count: Generated<number>;
  /** how many of the failed were the engine's refusals (migration 0018) */
  refused_count: Generated<number>;
  scored_count: Generated<number>;
  healthy_count: Generated<number>;
  disease_count: Generated<number>;
  confidence_sum: Generated<number>;
  processing_time_sum: Generated<number>;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** the engine that scored it (migration 0005); null until a job has run */
  engine_label: string | null;
  /** the signed-in user who created it (migration 0010); null while sign-in is off */
  created_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** what the photos show: auto, root_slice or leaf (migration 0017) */
  specimen_kind: Generated<string>;
  /** the lab model the task scores with (null: the default engine) and its name, kept after the model goes */
  model_id: ColumnType<number | null, number | null | undefined, number | null>;
  model_name: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One queued unit of work: up to `split_count` images of a task. */
export interface TaskJobsTable {
  id: Generated<number>;
  task_id: number;
  image_ids: string;
  status: string;
  attempts: Generated<number>;
  updated_at: string;
}

/**
 * One prediction result per (task, image). `vis_keys` is JSON {cut2_1: key, ...} (one cut2_i / pred_i per
 * specimen); `sub_ppd_values` a JSON array; `specimens` a JSON array of StoredSpecimen (migration 0006,
 * predictions/stored-specimens.ts).
 */
export interface ResultsTable {
  id: Generated<number>;
  task_id: number;
  image_id: number;
  image_name: string;
  image_name_lower: string;
  ppd_value: number | null;
  sub_ppd_values: string;
  prediction: string | null;
  confidence: number | null;
  oss_key: string | null;
  vis_keys: string;
  error_code: string | null;
  error_message: string | null;
  processing_time: number | null;
  created_at: string;
  /** JSON StoredSpecimen[] in index order; '[]' for a failed image */
  specimens: Generated<string>;
  /** length of `specimens` */
  specimen_count: Generated<number>;
  /** 0/1: any specimen needs review */
  needs_review: Generated<number>;
  /** 0/1: a reviewer changed something */
  reviewed: Generated<number>;
  /** the engine's own mean, kept whatever a reviewer changes */
  engine_ppd_value: ColumnType<number | null, number | null | undefined, number | null>;
  /** specimens not excluded = length of sub_ppd_values (migration 0011; the group summary's index holds it) */
  counted_specimens: Generated<number>;
}

/** One review change of one specimen of a result (migration 0007); ids give the order. */
export interface ResultReviewsTable {
  id: Generated<number>;
  result_id: number;
  specimen_index: number;
  /** excluded | included | ppd | added | reset */
  change: string;
  /** JSON: a PPD, a boolean or null */
  from_value: string;
  to_value: string;
  note: string | null;
  /** who made the change once sign-in exists; null while sign-in is off */
  user_id: number | null;
  created_at: string;
}

/** Images per folder and format, kept by triggers (migration 0004); folder_key 0 is uncategorised. */
export interface ImageCountsTable {
  folder_key: number;
  format: string;
  n: number;
}

/** A user who can sign in (migration 0010); owned by users/users.repository.ts. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** lower-cased NFC username: the unique key */
  username_key: string;
  /** viewer | researcher | admin */
  role: string;
  /** `scrypt$N$r$p$salt$hash` (auth/password.ts) */
  password_hash: string;
  created_at: string;
}

/** A signed-in session (migration 0010); owned by auth/sessions.repository.ts. */
export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's token: the token itself is never stored */
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
}

/** One failed login, per user name and per address (migration 0010); owned by auth/login-failures.repository.ts. */
export interface LoginFailuresTable {
  id: Generated<number>;
  /** `user:<username key>` or `addr:<client address>` */
  subject: string;
  created_at: string;
}

/** Who deleted what (migration 0010); owned by auth/audit.repository.ts. */
export interface AuditLogTable {
  id: Generated<number>;
  user_id: number | null;
  /** kept as it was, so the entry still names someone whose account was removed later */
  username: string | null;
  /** e.g. `DELETE /api/images/:id/` */
  action: string;
  /** what it was done to, e.g. `id=12` */
  target: string;
  created_at: string;
}

/**
 * An upload refused with a 409 duplicate, kept for the user's choice (migration 0012); owned by
 * uploads/pending-uploads.repository.ts. `files` is JSON (uploads/pending-uploads.ts); the bytes are in blob
 * storage under `pending/<token>/`.
 */
export interface PendingUploadsTable {
  token: string;
  folder_id: number | null;
  files: string;
  created_at: string;
  expires_at: string;
}

/** One sample field of one image (migration 0011): a number in num_value, a date or text in text_value. */
export interface ImageFieldsTable {
  image_id: number;
  field: string;
  num_value: number | null;
  text_value: string | null;
}

/** An image's label image (migration 0016); owned by labels/labels.repository.ts. Counts are pixels per class. */
export interface ImageLabelsTable {
  image_id: number;
  /** `labels/<image id>/<random>.png` in blob storage: a PNG at the photo's size as shown */
  blob_key: string;
  width: number;
  height: number;
  background: number;
  healthy: number;
  lesion: number;
  excluded: number;
  user_id: number | null;
  username: string | null;
  updated_at: string;
}

/** A lab model (migration 0017): JSON text in image_ids, labelled_pixels, metrics and heldout. */
export interface ModelsTable {
  id: Generated<number>;
  name: string;
  /** training, ready, failed, cancelled */
  status: string;
  progress: Generated<number>;
  image_ids: string;
  image_count: Generated<number>;
  labelled_pixels: string;
  metrics: string | null;
  heldout: Generated<string>;
  /** the portable model file in blob storage, once ready */
  file_key: string | null;
  file_size: number | null;
  error_message: string | null;
  /** the training job: queued, running, done */
  job_state: string;
  attempts: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * The storage check's one row (migration 0019; owned by storage-check/storage-checks.repository.ts): the run in
 * progress or last started, and the last finished check with what it found (`problems`: JSON text).
 */
export interface StorageChecksTable {
  id: number;
  /** 0/1: a check holds the row (live while `heartbeat_at` moves) */
  running: number;
  /** schedule | manual | command: what started the run in progress or last started */
  run_trigger: string;
  started_at: string;
  heartbeat_at: string;
  finished_at: string | null;
  trigger: string | null;
  files: Generated<number>;
  bytes: Generated<number>;
  missing: Generated<number>;
  corrupt: Generated<number>;
  untracked: Generated<number>;
  problems: Generated<string>;
  error_message: string | null;
}

export interface Database {
  folders: FoldersTable;
  images: ImagesTable;
  image_counts: ImageCountsTable;
  tasks: TasksTable;
  task_jobs: TaskJobsTable;
  results: ResultsTable;
  result_reviews: ResultReviewsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  audit_log: AuditLogTable;
  pending_uploads: PendingUploadsTable;
  image_fields: ImageFieldsTable;
  image_labels: ImageLabelsTable;
  models: ModelsTable;
  storage_checks: StorageChecksTable;
}
