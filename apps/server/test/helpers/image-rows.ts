import { ImagesRepository } from '../../src/images/images.repository.js';
import type { TestServer } from './test-server.js';

let counter = 0;

/**
 * Inserts one image row through the images repository, with no file behind it: for listing tests that need
 * hundreds of rows with chosen names, dates and sizes, not real uploads. Each row gets a unique sha256.
 */
export async function insertImageRow(
  server: TestServer,
  row: { name: string; created?: string; size?: number; folderId?: number | null },
): Promise<void> {
  counter += 1;
  const sha = String(counter).padStart(64, 'b');
  await new ImagesRepository(server.ctx.db.kysely, server.ctx.db.dialect).insert({
    name: row.name,
    name_lower: row.name.toLowerCase(),
    folder_id: row.folderId ?? null,
    folder_sort: '',
    size: row.size ?? 1000,
    format: 'jpeg',
    width: 10,
    height: 10,
    sha256: sha,
    blob_key: `originals/bb/${sha}.jpg`,
    thumb_key: `thumbs/bb/${sha}.webp`,
    created_at: row.created ?? new Date(Date.UTC(2026, 10, 1, 0, 0, counter)).toISOString(),
  });
}
