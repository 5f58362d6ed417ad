import type { NameMismatch } from '@cassavascope/contract';
import { fieldLabel } from './field-label';

type T = (key: string, options?: Record<string, unknown>) => string;

/** A field of a pattern as written (`{rep}`) and by its name ("Replicate"); `*` is the skipped part. */
function placeholder(t: T, field: string): { placeholder: string; field: string } {
  return field === '*'
    ? { placeholder: '{*}', field: t('samples:fit.skipped_part') }
    : { placeholder: `{${field}}`, field: fieldLabel(t, field) };
}

/**
 * Why a name does not fit the pattern, in the screen's language (issue 25 item 5): which field, what it
 * expects, what the name has.
 */
export function nameMismatchText(t: T, mismatch: NameMismatch): string {
  switch (mismatch.kind) {
    case 'value':
      return t(`samples:fit.value_${mismatch.expected}`, { ...placeholder(t, mismatch.field), found: mismatch.found });
    case 'literal':
      return mismatch.after === null
        ? t('samples:fit.literal_start', { expected: mismatch.expected, found: mismatch.found })
        : t('samples:fit.literal_after', {
            ...placeholder(t, mismatch.after),
            expected: mismatch.expected,
            found: mismatch.found,
          });
    case 'short':
      return t('samples:fit.short', placeholder(t, mismatch.field));
    case 'extra':
      return t('samples:fit.extra', { found: mismatch.found });
  }
}
