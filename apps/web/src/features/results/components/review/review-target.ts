import type { ResultView, SpecimenView } from '../../../../lib/normalize-result';

/**
 * The specimen the keys A (accept) and X (exclude) act on: the one the reviewer picked (a click on its box or card),
 * else the first still needing review, else, on a photo where nothing is flagged, the first one still counted, so
 * the keys walk a multi-specimen photo as the hint says. Null on a result without a specimen to act on.
 */
export function reviewTarget(result: ResultView | null, picked: number | null = null): SpecimenView | null {
  if (!result || result.ppdValue === null || result.errorCode !== null) return null;
  const counted = result.specimens.filter((s) => !s.excluded);
  return (
    (picked !== null ? counted.find((s) => s.index === picked) : undefined) ??
    counted.find((s) => s.needsReview) ??
    counted[0] ??
    null
  );
}

/**
 * After a key acted on `acted`, the specimen the next key acts on (`updated` is the result the change returned), or
 * null when this photo is done and the next result should open: the flagged ones first while any is left; once
 * the last flagged one is cleared the photo is done; walking unflagged specimens, the next one in number order.
 */
export function nextReviewTarget(updated: ResultView, acted: SpecimenView): number | null {
  const counted = updated.specimens.filter((s) => !s.excluded);
  const flagged = counted.find((s) => s.needsReview);
  if (flagged) return flagged.index;
  if (acted.needsReview) return null;
  return counted.find((s) => s.index > acted.index)?.index ?? null;
}
