import { severityOf, type ReviewChange } from '@cassavascope/contract';
import { ApiError } from '../http/errors.js';
import type { ReviewedValues } from './results.repository.js';
import type { StoredSpecimen } from './stored-specimens.js';

/** One change a review made, before it becomes a history row. */
export interface ChangeMade {
  index: number;
  change: ReviewChange;
  from: number | boolean | null;
  to: number | boolean | null;
}

export interface SpecimenPatch {
  excluded?: boolean | undefined;
  /** a number: the reviewer's value; null: back to the engine's value; undefined: unchanged */
  ppd?: number | null | undefined;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A result that has no score (a failed image, or cuts only) cannot be reviewed. */
export function assertScored(row: {
  error_code: string | null;
  engine_ppd_value: number | null;
  ppd_value: number | null;
}): void {
  if (row.error_code !== null || (row.engine_ppd_value === null && row.ppd_value === null)) {
    throw new ApiError(
      409,
      'not_scored',
      'This result has no score to review (the image failed or only its cuts were made)',
      {
        error_code: row.error_code,
      },
    );
  }
}

/**
 * Applies a PATCH to one specimen (pure: returns new specimens and the changes made, in the order
 * excluded/included then ppd/reset). Every refusal is thrown before anything is built, so a refused
 * request changes nothing. A specimen a reviewer touched no longer needs review.
 */
export function patchSpecimen(
  specimens: StoredSpecimen[],
  index: number,
  patch: SpecimenPatch,
): { specimens: StoredSpecimen[]; changes: ChangeMade[] } {
  const at = specimens.findIndex((s) => s.index === index);
  if (at < 0) {
    throw new ApiError(404, 'unknown_specimen', `This result has no specimen ${index} (it has ${specimens.length})`, {
      index,
      specimen_count: specimens.length,
    });
  }
  const before = specimens[at]!;
  const next: StoredSpecimen = { ...before };
  const changes: ChangeMade[] = [];
  if (patch.excluded !== undefined && patch.excluded !== before.excluded) {
    if (patch.excluded) {
      const othersIncluded = specimens.filter((s) => s.index !== index && !s.excluded).length;
      if (othersIncluded === 0) {
        throw new ApiError(
          409,
          'last_specimen',
          'The last specimen still counted cannot be excluded: a result needs at least one',
          { index },
        );
      }
    }
    next.excluded = patch.excluded;
    changes.push({
      index,
      change: patch.excluded ? 'excluded' : 'included',
      from: before.excluded,
      to: patch.excluded,
    });
  }
  if (patch.ppd === null) {
    if (before.engine_ppd === null) {
      throw new ApiError(
        409,
        'no_engine_value',
        `Specimen ${index} has no engine value to return to (a reviewer scored it)`,
        { index },
      );
    }
    next.ppd = before.engine_ppd;
    next.corrected = false;
    changes.push({ index, change: 'reset', from: before.ppd, to: before.engine_ppd });
  } else if (patch.ppd !== undefined) {
    next.ppd = round2(patch.ppd);
    next.corrected = true;
    changes.push({ index, change: 'ppd', from: before.ppd, to: next.ppd });
  }
  if (changes.length > 0) next.needs_review = false;
  const out = specimens.slice();
  out[at] = next;
  return { specimens: out, changes };
}

/**
 * The result's values from its specimens (api.md): `sub_ppd_values` = the PPD of every specimen not
 * excluded, in index order; `ppd_value` their mean (2 decimals); `prediction` its band; `needs_review`
 * any specimen still needing review.
 */
export function reviewedValues(specimens: StoredSpecimen[]): ReviewedValues {
  const counted = specimens.filter((s) => !s.excluded && s.ppd !== null).map((s) => s.ppd as number);
  const ppdValue = counted.length > 0 ? round2(counted.reduce((a, b) => a + b, 0) / counted.length) : null;
  return {
    specimens,
    ppdValue,
    subPpdValues: counted,
    prediction: ppdValue === null ? null : severityOf(ppdValue),
    needsReview: specimens.some((s) => s.needs_review && !s.excluded),
  };
}
