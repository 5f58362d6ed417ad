import { ApiError } from './api-client';

/**
 * Error codes that have their own text in common.json (`errors.<code>`): the HTTP client's network_error /
 * timeout / aborted / invalid_response / response_mismatch, and the server's codes (docs/api.md), including the per-file codes of
 * an upload response's `errors`. Anything else (http_<status>, internal_error, a code another backend invents)
 * falls back to the caller's key or `errors.generic`: the server's English `detail` is never shown.
 */
export const TRANSLATED_ERROR_CODES = [
  'network_error',
  'timeout',
  'aborted',
  'invalid_response',
  'response_mismatch',
  'invalid',
  'invalid_json',
  'invalid_multipart',
  'invalid_zip',
  'unsupported_media_type',
  'not_an_image',
  'too_large',
  'suspicious_compression',
  'corrupt_entry',
  'duplicate',
  'unknown_ids',
  'no_images',
  'not_found',
  'name_exists',
  'not_running',
  'engine_unavailable',
] as const;

const TRANSLATED = new Set<string>(TRANSLATED_ERROR_CODES);

/** The `t` of any namespace: keys are given with their `common:` namespace. */
type Translate = (key: string) => string;

/** The translated text of an error code, or null when the code has none. */
export function codeMessage(t: Translate, code: string | null | undefined): string | null {
  return code && TRANSLATED.has(code) ? t(`common:errors.${code}`) : null;
}

/** The code of a failure: an ApiError's code, null for anything else. */
export const errorCode = (err: unknown): string | null => (err instanceof ApiError ? err.code : null);

/**
 * The text to show for a failure, in the current language: the translation of its code when there is one,
 * else `t(fallbackKey)` (a namespaced key, e.g. 'connection:error.generic'), else `errors.generic`.
 */
export function errorMessage(t: Translate, err: unknown, fallbackKey = 'common:errors.generic'): string {
  return codeMessage(t, errorCode(err)) ?? t(fallbackKey);
}

/** For a per-file upload error `{name, code, detail}`: the translation of its code, else `errors.generic`. */
export const uploadErrorMessage = (t: Translate, code: string | null | undefined): string =>
  codeMessage(t, code) ?? t('common:errors.generic');
