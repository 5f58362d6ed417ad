import { API_TIMEOUT_MS } from '@cassavascope/contract';

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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
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

/** Turns a non-2xx status and its body text into an ApiError. */
export function errorFromResponse(status: number, text: string): ApiError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: keep the generic code below
  }
  const code = typeof body.code === 'string' ? body.code : `http_${status}`;
  const detail = typeof body.detail === 'string' ? body.detail : `Request failed with status ${status}`;
  const fields =
    body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, string>) : {};
  return new ApiError(status, code, detail, fields, body);
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
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
      if (timedOut) throw new ApiError(0, 'timeout', `Request timed out after ${(options.timeoutMs ?? API_TIMEOUT_MS) / 1000} s`);
      if (options.signal?.aborted) throw err;
      throw new ApiError(0, 'network_error', err instanceof Error ? err.message : 'Network error');
    }
    const text = await res.text();
    if (!res.ok) throw errorFromResponse(res.status, text);
    return (text ? JSON.parse(text) : null) as T;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown, query?: Record<string, QueryValue>) =>
    apiRequest<T>(path, { method: 'POST', body, query }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
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
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : null) as T);
        } catch {
          reject(new ApiError(xhr.status, 'invalid_response', 'The server sent a response that is not JSON'));
        }
      } else {
        reject(errorFromResponse(xhr.status, xhr.responseText));
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
