import { ApiError } from './errors.js';

/** Longest path segment answered (the router's own limit for path parameters, `maxParamLength`). */
export const MAX_PATH_SEGMENT = 500;

/**
 * What is wrong with a request URL that the router and the query parser let through (api.md "General"): a path
 * segment over 500 characters is 414 `too_large` wherever it is (the router only refused over-long parameters, so
 * a GET fell through to the web app's catch-all as a 404), and a malformed percent-encoding in the query (`%`,
 * `%zz`, bytes that are not UTF-8) is 400 `invalid` naming the parameter (the parser kept it as literal text).
 * Null when the URL is fine.
 */
export function urlProblem(url: string): ApiError | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT))
    return new ApiError(414, 'too_large', 'A part of the URL is too long');
  if (q === -1) return null;
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    try {
      decodeURIComponent(rawKey.replace(/\+/g, ' '));
      decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      const name = safeDecode(rawKey);
      return new ApiError(400, 'invalid', `The query parameter ${name} has a malformed percent-encoding`, {
        fields: { [name]: 'malformed percent-encoding (write % as %25)' },
      });
    }
  }
  return null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
