import type { Folder } from '@cassavascope/contract';
import type { FolderRow } from './folders.repository.js';

/** A folder row as the API shows it (api.md "Folder object"). */
export function toFolder(row: FolderRow): Folder {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    imageCount: row.image_count,
    createdDate: row.created_at,
  };
}
