import { asRecord, pickNumber, pickString } from './normalize-fields';

/** A folder as the screens use it (spec section 3). */
export interface FolderItem {
  id: number;
  name: string;
  description: string;
  /** imageCount, falling back to num_images, then 0. */
  imageCount: number;
  /** createdDate, falling back to created_at. */
  createdDate: string | null;
}

export function normalizeFolder(value: unknown): FolderItem {
  const raw = asRecord(value);
  return {
    id: pickNumber(raw, 'id') ?? 0,
    name: pickString(raw, 'name') ?? '',
    description: pickString(raw, 'description') ?? '',
    imageCount: pickNumber(raw, 'imageCount', 'num_images') ?? 0,
    createdDate: pickString(raw, 'createdDate', 'created_at'),
  };
}
