import { api } from '../../../lib/api-client';

/**
 * Deletes images one call per image (spec section 7), a few at a time. Returns how many were deleted and
 * the ids that failed, so a partial failure is reported honestly.
 */
export async function deleteImages(ids: number[], concurrency = 4): Promise<{ deleted: number; failed: number[] }> {
  let deleted = 0;
  const failed: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        await api.delete(`/images/${id}/`);
        deleted++;
      } catch {
        failed.push(id);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  return { deleted, failed };
}
