import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import {
  CONTRACT_HEADER,
  CONTRACT_VERSION,
  folderListSchema,
  imageListSchema,
  serverStatusSchema,
  taskListSchema,
} from '@cassavascope/contract';
import { api, ApiError, apiRequest, checkResponse, errorFromResponse } from '../src/lib/api-client';
import { errorMessage } from '../src/lib/error-message';
import { normalizeFolder } from '../src/lib/normalize-folder';
import { normalizeTaskList } from '../src/lib/normalize-task';
import enCommon from '../src/locales/en/common.json';
import zhCommon from '../src/locales/zh/common.json';

/** A task exactly as api.md describes it. */
const task = {
  id: 7,
  name: 'Plot 3',
  type: 'prediction',
  status: 'running',
  algorithm: 'deeplabv3plus_resnet101',
  model_type: 'deeplabv3plus_resnet101',
  engine_label: null,
  image_ids: [1, 2],
  image_count: 2,
  progress: 50,
  processed_count: 1,
  failed_count: 0,
  refused_count: 0,
  created_time: '2026-11-21T10:02:00.000Z',
  updated_time: '2026-11-21T10:03:00.000Z',
  completed_time: null,
  parameters: {
    threshold: 0.5,
    min_size: 100,
    method: 'post',
    use_tta: false,
    morph_kernel_size: 5,
    morph_iterations: 1,
    overlay_opacity: 0.5,
    split_count: 32,
  },
  statistics: null,
  error_message: null,
  specimen_kind: 'auto',
  model_id: null,
};
const taskList = {
  count: 1,
  next: null,
  previous: null,
  results: [task],
  status_counts: { running: 1, completed: 0, failed: 0, cancelled: 0 },
};

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
  vi.unstubAllGlobals();
});

/** What `fetch` answers in these tests: a real Response, with the contract header when `ours`. */
function serve(status: number, body: unknown, ours: boolean) {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (ours) headers.set(CONTRACT_HEADER, CONTRACT_VERSION);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  vi.stubGlobal('fetch', async () => new Response(status === 204 ? null : text, { status, headers }));
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('checkResponse: our server answers what the contract says', () => {
  it('a body that matches comes back as it was sent, fields the schema does not name included', () => {
    const body = { ...taskList, results: [{ ...task, extra_field: 'kept' }] };
    expect(checkResponse(taskListSchema, body, true, 'GET /api/tasks/')).toBe(body);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('a missing or mistyped field is an ApiError response_mismatch naming the field, logged with the body', () => {
    const { status: _dropped, ...withoutStatus } = task;
    const body = { ...taskList, results: [withoutStatus] };
    const err = (() => {
      try {
        checkResponse(taskListSchema, body, true, 'GET /api/tasks/');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('response_mismatch');
    expect((err as ApiError).detail).toContain('results.0.status');
    expect((err as ApiError).detail).toContain('GET /api/tasks/');
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('results.0.status');
    expect(consoleError.mock.calls[0]?.[1]).toBe(body);

    expect(() =>
      checkResponse(
        folderListSchema,
        { count: '3', next: null, previous: null, results: [] },
        true,
        'GET /api/folders/',
      ),
    ).toThrow(/count/);
    expect(() => checkResponse(serverStatusSchema, null, true, 'GET /api/status/')).toThrow(ApiError);
  });

  it("another backend's body (no contract header) is left to the normalisers, alternative names and all", () => {
    const academy = [{ id: '4', name: 'Field B', num_images: 12, created_at: '2025-05-05T00:00:00Z' }];
    expect(checkResponse(folderListSchema, academy, false, 'GET /api/folders/')).toBe(academy);
    expect(normalizeFolder(academy[0])).toMatchObject({ id: 4, imageCount: 12, createdDate: '2025-05-05T00:00:00Z' });
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('apiRequest checks what it fetched', () => {
  it('our server with a matching body: the normaliser gets it', async () => {
    serve(200, taskList, true);
    const list = normalizeTaskList(await api.get('/tasks/', undefined, undefined, taskListSchema));
    expect(list.results[0]).toMatchObject({ id: 7, status: 'running', progress: 50 });
  });

  it('our server with a changed body (progress as text, facets missing): response_mismatch, not undefined', async () => {
    serve(200, { ...taskList, results: [{ ...task, progress: '50' }] }, true);
    const err = await failure(api.get('/tasks/', undefined, undefined, taskListSchema));
    expect([err.status, err.code]).toEqual([200, 'response_mismatch']);
    expect(err.detail).toContain('results.0.progress');

    serve(200, { count: 0, next: null, previous: null, results: [] }, true);
    expect((await failure(api.get('/images/', { page: 1 }, undefined, imageListSchema))).detail).toContain('facets');
    expect(consoleError).toHaveBeenCalledTimes(2);
  });

  it('the same changed body from another backend is read as before', async () => {
    serve(200, { ...taskList, results: [{ ...task, progress: '50' }] }, false);
    expect(normalizeTaskList(await api.get('/tasks/', undefined, undefined, taskListSchema)).results[0]?.progress).toBe(
      50,
    );
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('a 2xx body that is not JSON is invalid_response; a 204 is null', async () => {
    serve(200, '<html>proxy</html>', true);
    expect((await failure(apiRequest('/status/', { schema: serverStatusSchema }))).code).toBe('invalid_response');
    serve(204, '', true);
    expect(await api.delete('/tasks/1/')).toBeNull();
  });

  it("error answers are read with the contract's error schema; one of ours without {code, detail} is logged", async () => {
    serve(409, { code: 'name_exists', detail: 'A folder named A exists', fields: { name: 'exists' } }, true);
    const exists = await failure(api.post('/folders/', { name: 'A' }));
    expect([exists.status, exists.code, exists.fields]).toEqual([409, 'name_exists', { name: 'exists' }]);
    expect(consoleError).not.toHaveBeenCalled();

    expect(errorFromResponse(502, '<html>Bad gateway</html>', true).code).toBe('http_502');
    expect(consoleError).toHaveBeenCalledTimes(1);
    // Another backend's error keeps its code and detail even without the contract's full shape.
    expect(errorFromResponse(404, JSON.stringify({ detail: 'Not found.' })).detail).toBe('Not found.');
  });
});

describe('the mismatch on screen', () => {
  const t = i18n.createInstance();
  void t.init({
    resources: { en: { common: enCommon }, zh: { common: zhCommon } },
    lng: 'en',
    defaultNS: 'common',
    initImmediate: false,
    showSupportNotice: false,
  });

  it('is a translated message in English and Chinese, never the English detail', async () => {
    serve(200, { ...taskList, results: [{ ...task, status: 42 }] }, true);
    const err = await failure(api.get('/tasks/', undefined, undefined, taskListSchema));
    expect(errorMessage(t.getFixedT('en'), err)).toBe(enCommon.errors.response_mismatch);
    expect(errorMessage(t.getFixedT('zh'), err)).toBe(zhCommon.errors.response_mismatch);
    expect(zhCommon.errors.response_mismatch).toMatch(/[\u4e00-\u9fff]/);
    expect(errorMessage(t.getFixedT('en'), err)).not.toContain('status');
  });
});
