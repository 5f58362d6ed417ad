import { asRecord, pickBoolean, pickNumber, pickString } from './normalize-fields';

/** An image as the screens use it, whatever field names the server sent (spec section 3). */
export interface ImageItem {
  id: number;
  name: string;
  /** image_url, or url. */
  url: string;
  /** thumbnail_url, falling back to the full image. */
  thumbnailUrl: string;
  folderId: number | null;
  /** Bytes. */
  size: number;
  format: string;
  createdTime: string | null;
  uploadDate: string | null;
  hasPPD: boolean;
  ppdValue: number | null;
  lastPrediction: string | null;
  /** the sample fields (genotype, rep, dah...); {} when none or when the server has none */
  metadata: Record<string, string | number>;
  /** a researcher has painted labels on it (issue 23; false when the server does not say) */
  hasLabels: boolean;
  /**
   * its newest reviewed result (`reviewed_result`; null when none or the server does not say): `latest` when it is
   * the newest result itself, otherwise a later run nobody reviewed gives `ppdValue`
   */
  reviewed: { ppdValue: number; prediction: string | null; latest: boolean } | null;
}

export function normalizeImage(value: unknown): ImageItem {
  const raw = asRecord(value);
  const url = pickString(raw, 'image_url', 'url', 'imageUrl') ?? '';
  const name = pickString(raw, 'name', 'filename', 'file_name') ?? '';
  const ppdValue = pickNumber(raw, 'ppdValue', 'ppd_value');
  const created = pickString(raw, 'created_time', 'createdTime', 'created_at', 'uploadDate');
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return {
    id: pickNumber(raw, 'id') ?? 0,
    name,
    url,
    thumbnailUrl: pickString(raw, 'thumbnail_url', 'thumbnailUrl', 'thumbnail') ?? url,
    folderId: pickNumber(raw, 'folderId', 'folder_id', 'folder'),
    size: pickNumber(raw, 'size', 'file_size') ?? 0,
    format: pickString(raw, 'format', 'type') ?? extension,
    createdTime: created,
    uploadDate: pickString(raw, 'uploadDate', 'upload_date', 'created_time') ?? created,
    hasPPD: pickBoolean(raw, 'hasPPD', 'has_ppd') ?? ppdValue !== null,
    ppdValue,
    lastPrediction: pickString(raw, 'lastPrediction', 'last_prediction'),
    metadata: sampleFields(raw.metadata),
    hasLabels: pickBoolean(raw, 'has_labels', 'hasLabels') ?? false,
    reviewed: reviewedResult(raw.reviewed_result),
  };
}

/** `reviewed_result` when it has a number PPD; anything else (absent, another backend's shape) is null. */
function reviewedResult(value: unknown): ImageItem['reviewed'] {
  const raw = asRecord(value);
  const ppdValue = pickNumber(raw, 'ppd_value');
  if (ppdValue === null) return null;
  return { ppdValue, prediction: pickString(raw, 'prediction'), latest: pickBoolean(raw, 'latest') ?? true };
}

/** The `metadata` object's number and text values; anything else (another backend's shape) is left out. */
function sampleFields(value: unknown): Record<string, string | number> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number',
    ),
  );
}
