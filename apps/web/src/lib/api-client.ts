import { API_TIMEOUT_MS, CONTRACT_HEADER, errorBodySchema } from '@cassavascope/contract';
import type { z } from 'zod';
import { waitForSignIn } from './sign-in-required';

/**
 * The one HTTP client of the web app: base /api, a 10 s timeout (spec section 9), JSON in and out.
 * Every failure becomes an ApiError, so screens can branch on `status`/`code` (409 name_exists, 409 duplicate...).
 */
export const API_BASE = '/api';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 for network failures and timeouts. */
    readonly status: number,
    /** The server's snake_case code, or network_error / timeout / http_<status> when it sent none. */
    readonly code: string,
    readonly detail: string,
    readonly fields: Record<string, string> = {},
    /** The whole parsed error body (e.g. `duplicates` of a 409 duplicate). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

/** The contract's schema of a response body (packages/contract/src/responses.ts). */
export type ResponseSchema = z.ZodType;

/**
 * Checks the body of an answer against the contract's schema when our server sent it (it says so with
 * CONTRACT_HEADER); another backend's body is left to the normalisers, which read its alternative field names.
 * A body that does not match is logged with every mismatch and thrown as ApiError `response_mismatch`, which
 * the screens translate: a changed answer shows as an error, never as a silent `undefined` further on.
 * The body is returned as it came (the schema's output would drop fields it does not name).
 */
export function checkResponse(
  schema: ResponseSchema | undefined,
  body: unknown,
  fromContractServer: boolean,
  call: string,
  status = 200,
): unknown {
  if (!schema || !fromContractServer) return body;
  const result = schema.safeParse(body);
  if (result.success) return body;
  const issues = result.error.issues.map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`);
  console.error(`[api] ${call} answered a body that does not match the contract:\n  ${issues.join('\n  ')}`, body);
  throw new ApiError(
    status,
    'response_mismatch',
    `${call}: the answer does not match the contract (${issues[0]})`,
    {},
    { issues },
  );
}

/** Whether an answer came from CassavaScope's server (its bodies follow the contract). */
const fromContract = (header: string | null) => header !== null && header !== '';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** false: a 401 `not_signed_in` is thrown at once instead of waiting for a sign-in (the sign-in calls) */
  waitForSignIn?: boolean;
  /** the contract's schema of the answer: checked when our server sent it (see checkResponse) */
  schema?: ResponseSchema;
}

/** Builds `/api/<path>?<query>`; null/undefined/'' query values are left out. */
export function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const qs = params.toString();
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
}

/**
 * Turns a non-2xx status and its body text into an ApiError. A body of the contract's error shape gives the
 * code, detail and fields; without a code (a proxy's HTML page, another backend's error) it is `http_<status>`.
 * An error body of our server that is not of that shape is logged (`fromContractServer`).
 */
export function errorFromResponse(status: number, text: string, fromContractServer = false): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the generic code below
  }
  const parsed = errorBodySchema.safeParse(json);
  if (parsed.success) {
    const { code, detail, fields = {} } = parsed.data;
    return new ApiError(status, code, detail, fields, json as Record<string, unknown>);
  }
  if (fromContractServer)
    console.error(`[api] an error answer (${status}) does not match the contract's {code, detail}:`, text);
  // Another backend's error: its code and detail where it has them.
  const body = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const code = typeof body.code === 'string' ? body.code : `http_${status}`;
  const detail = typeof body.detail === 'string' ? body.detail : `Request failed with status ${status}`;
  return new ApiError(status, code, detail, {}, body);
}

/** A 401 `not_signed_in`: the session ended (or never began) while sign-in is on. */
export const isNotSignedIn = (err: unknown) =>
  err instanceof ApiError && err.status === 401 && err.code === 'not_signed_in';

/**
 * Repeats a call after the user has signed in again when its session had ended: the shell shows the sign-in form
 * over the current screen meanwhile (lib/sign-in-required.ts), so the screen and what was typed stay.
 */
async function afterSignIn<T>(send: () => Promise<T>, wait = true): Promise<T> {
  for (;;) {
    try {
      return await send();
    } catch (err) {
      if (!wait || !isNotSignedIn(err)) throw err;
      await waitForSignIn();
    }
  }
}

export function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return afterSignIn(() => requestOnce<T>(path, options), options.waitForSignIn !== false);
}

async function requestOnce<T>(path: string, options: RequestOptions): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? API_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort);
  try {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let res: Response;
    try {
      res = await fetch(apiUrl(path, options.query), {
        method: options.method ?? 'GET',
        headers,
        body,
        signal: controller.signal,
      });
    } catch (err) {
      if (timedOut)
        throw new ApiError(0, 'timeout', `Request timed out after ${(options.timeoutMs ?? API_TIMEOUT_MS) / 1000} s`);
      if (options.signal?.aborted) throw err;
      throw new ApiError(0, 'network_error', err instanceof Error ? err.message : 'Network error');
    }
    const text = await res.text();
    const ours = fromContract(res.headers.get(CONTRACT_HEADER));
    if (!res.ok) throw errorFromResponse(res.status, text, ours);
    const call = `${options.method ?? 'GET'} ${apiUrl(path)}`;
    return checkResponse(options.schema, parseBody(text, res.status, call), ours, call, res.status) as T;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** A 2xx body: JSON, or null when empty; anything else is ApiError `invalid_response`. */
function parseBody(text: string, status: number, call: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    console.error(`[api] ${call} answered a body that is not JSON:`, text.slice(0, 200));
    throw new ApiError(status, 'invalid_response', 'The server sent a response that is not JSON');
  }
}

/** Shorthands of apiRequest; `schema` is the contract's schema of the answer (see checkResponse). */
export const api = {
  get: <T = unknown>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal, schema?: ResponseSchema) =>
    apiRequest<T>(path, { query, signal, schema }),
  post: <T = unknown>(path: string, body?: unknown, schema?: ResponseSchema) =>
    apiRequest<T>(path, { method: 'POST', body, schema }),
  put: <T = unknown>(path: string, body?: unknown, schema?: ResponseSchema) =>
    apiRequest<T>(path, { method: 'PUT', body, schema }),
  delete: <T = null>(path: string, query?: Record<string, QueryValue>) =>
    apiRequest<T>(path, { method: 'DELETE', query }),
};

/**
 * Multipart upload with real progress from XMLHttpRequest upload events (fetch has none).
 * `onProgress` gets 0-100 as bytes leave the browser. Uploads have no 10 s timeout: a large ZIP
 * legitimately takes longer; a stalled connection still fails through the network error path.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
  schema?: ResponseSchema,
): Promise<T> {
  return afterSignIn(() => uploadOnce<T>(path, form, onProgress, signal, schema));
}

function uploadOnce<T>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
  schema?: ResponseSchema,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    });
    xhr.addEventListener('load', () => {
      const ours = fromContract(xhr.getResponseHeader(CONTRACT_HEADER));
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        const call = `POST ${apiUrl(path)}`;
        try {
          resolve(checkResponse(schema, parseBody(xhr.responseText, xhr.status, call), ours, call, xhr.status) as T);
        } catch (err) {
          reject(err);
        }
      } else {
        reject(errorFromResponse(xhr.status, xhr.responseText, ours));
      }
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network_error', 'Network error during upload')));
    xhr.addEventListener('abort', () => reject(new ApiError(0, 'aborted', 'Upload cancelled')));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** A list response may be an array or a DRF envelope `{results: [...]}` (spec section 7). */
export function listResults(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results)) {
    return (data as { results: unknown[] }).results;
  }
  return [];
}

/** The total of a list response: the envelope's count, or the array length. */
export function listCount(data: unknown): number {
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const c = (data as { count?: unknown }).count;
    if (typeof c === 'number') return c;
  }
  return listResults(data).length;
}
