import type { Db } from '../db/database.js';
import { ImagesRepository } from '../images/images.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { guardOf } from '../storage/blob-guard.js';

/** originals/ and thumbs/ keys are named by the sha256 of the bytes: every row with those bytes shares them. */
const CONTENT_KEY = /^(?:originals|thumbs)\/[0-9a-f]{2}\/([0-9a-f]{64})\.[a-z0-9]+$/;

/**
 * Removes stored files whose rows are gone (issue 26, point 1). Content-addressed keys may meanwhile have been
 * taken up again by an upload of the same bytes, which found the file in place and put nothing: they are
 * removed only under the blob guard uploads take (in every process with PostgreSQL), and only if still no
 * row has their sha256 when checked there. A key an upload holds is left: its row will refer to it, or the
 * orphan sweep removes it later. Other keys (results, labels) belong to one row and go at once.
 */
export async function removeBlobs(deps: { db: Db; storage: BlobStorage }, keys: string[]): Promise<void> {
  const shared = keys.filter((k) => CONTENT_KEY.test(k));
  const own = keys.filter((k) => !CONTENT_KEY.test(k));
  if (own.length > 0) await deps.storage.delete(own);
  if (shared.length === 0) return;
  await guardOf(deps.storage).deleteUnclaimed(shared, async (held) => {
    if (held.length === 0) return;
    const shaOf = (k: string) => CONTENT_KEY.exec(k)![1]!;
    const used = await new ImagesRepository(deps.db.kysely, deps.db.dialect).existingSha256([
      ...new Set(held.map(shaOf)),
    ]);
    const doomed = held.filter((k) => !used.has(shaOf(k)));
    if (doomed.length > 0) await deps.storage.delete(doomed);
  });
}
