import { ApiError } from './errors.js';

/**
 * An id taken from the URL path. Ids are positive integers; anything else (`abc`, `1.5`, `-3`,
 * a number beyond 2^53) is a 400 rather than a 404, so clients see their own mistake.
 */
export function parsePathId(raw: string | undefined, what = 'id'): number {
  const value = raw ?? '';
  const n = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new ApiError(400, 'invalid', `${what} must be a positive integer`, {
      fields: { [what]: 'must be a positive integer' },
    });
  }
  return n;
}
