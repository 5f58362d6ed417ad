import { ApiError } from '../../../../lib/api-client';

/** Review refusals the review namespace explains (api.md's codes); anything else gets the generic text. */
const REVIEW_CODES = new Set([
  'last_specimen',
  'not_scored',
  'no_engine_value',
  'box_not_scored',
  'unknown_specimen',
  'image_deleted',
  'invalid',
]);

/** The translated reason a review change was refused (never the server's English detail). */
export function reviewErrorMessage(t: (key: string) => string, err: unknown): string {
  const code = err instanceof ApiError ? err.code : null;
  if (code && REVIEW_CODES.has(code)) return t(`review:errors.${code}`);
  if (code === 'network_error' || code === 'timeout' || code === 'engine_unavailable')
    return t(`common:errors.${code}`);
  return t('review:errors.generic');
}
