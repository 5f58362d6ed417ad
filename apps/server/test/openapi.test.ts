import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDocumentedUrl, openApiPath } from '../src/openapi/openapi-document.js';
import { formWith, makePng, makeZip, TEXT_BYTES } from './helpers/fixtures.js';
import { labScene, uploadLabelled, waitForModel } from './helpers/lab-scenes.js';
import { rawRequest } from './helpers/raw-request.js';
import { makeGreyJpeg, specimenFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The OpenAPI document (GET /api/openapi.json, issue 16) against the server itself: every route the server
 * registers is in it, and real answers of the real API (uploads, folders, tasks run by the engine, results,
 * review, export, media, errors) are what it documents: each answer's status is documented for its route, and
 * a JSON body validates against the documented schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it). Runs on
 * the embedded default and, in the scale-out pass, on PostgreSQL + S3 + pg-boss workers.
 */

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let server: TestServer;
let document: Json;
let ajv: Ajv2020;
/** `METHOD /template/` of every operation exercised, and `... STATUS` of every answer seen. */
const exercised = new Set<string>();
const answers = new Set<string>();
const problems: string[] = [];

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The documented path template a concrete path falls under: static segments win over parameters. */
function templateOf(pathname: string): string | undefined {
  const candidates = Object.keys(document.paths).filter((template) => {
    const pattern = template
      .split(/(\{[^}]+\})/)
      .map((part) =>
        part === '{path}' ? '.+' : /^\{.+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
      )
      .join('');
    return new RegExp(`^${pattern}$`).test(pathname);
  });
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  return candidates.sort((a, b) => params(a) - params(b))[0];
}

const validators = new Map<string, ValidateFunction>();
function validatorFor(pointer: string): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    v = ajv.compile({ $ref: `openapi.json#${pointer}` });
    validators.set(pointer, v);
  }
  return v;
}
const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/**
 * Checks one real answer against the document: its route and status are documented, its Content-Type is the
 * documented one, and a JSON body validates. Problems are collected (and asserted at the end and per call).
 */
function checkAnswer(
  method: string,
  pathname: string,
  status: number,
  contentType: string | null,
  text: string,
): string[] {
  const found: string[] = [];
  const template = templateOf(pathname);
  const operation = template ? document.paths[template][method.toLowerCase()] : undefined;
  if (!template || !operation) return [`${method} ${pathname}: no documented operation`];
  exercised.add(`${method} ${template}`);
  answers.add(`${method} ${template} ${status}`);
  const response = operation.responses[String(status)];
  if (!response)
    return [`${method} ${template}: answered ${status}, which is not documented (${Object.keys(operation.responses)})`];
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  if (!content) {
    if (text !== '')
      found.push(`${method} ${template} ${status}: documented without a body, answered ${text.slice(0, 80)}`);
    return found;
  }
  const type = (contentType ?? '').split(';')[0]!.trim();
  const documented = Object.keys(content);
  const match = documented.find((t) => t === type || t === '*/*');
  if (!match) return [`${method} ${template} ${status}: answered ${type}, documented ${documented.join(', ')}`];
  if (match === 'application/json') {
    const pointer = [
      '',
      'paths',
      template,
      method.toLowerCase(),
      'responses',
      String(status),
      'content',
      'application/json',
      'schema',
    ]
      .map((s, i) => (i === 0 ? '' : escape(s)))
      .join('/');
    const validate = validatorFor(pointer);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${method} ${template} ${status}: not JSON: ${text.slice(0, 80)}`];
    }
    if (!validate(body)) {
      found.push(
        `${method} ${template} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`,
      );
    }
  }
  return found;
}

interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** One request through fetch, checked against the document; JSON bodies are parsed. */
async function call(
  method: string,
  pathname: string,
  init: { json?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers = new Headers(init.headers);
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  } else if (init.form) body = init.form;
  const res = await fetch(server.url + pathname, { method, headers, body });
  const buffer = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type');
  const text = /^(application\/json|text\/)/.test(contentType ?? '')
    ? buffer.toString('utf8')
    : buffer.length > 0
      ? '<binary>'
      : '';
  const found = checkAnswer(method, pathname.split('?')[0]!, res.status, contentType, text);
  problems.push(...found);
  expect(found, `${method} ${pathname}`).toEqual([]);
  let parsed: any = null;
  if (contentType?.startsWith('application/json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, text, headers: res.headers };
}

beforeAll(async () => {
  server = await startTestServer({ WORKERS: '2' });
  const res = await fetch(`${server.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  document = (await res.json()) as Json;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, 'openapi.json');
});
afterAll(async () => {
  await server?.close();
});

describe('the document (GET /api/openapi.json)', () => {
  it('is OpenAPI 3.1 and lists every route the server registers under /api and /media, and nothing else', () => {
    expect(document.openapi).toBe('3.1.0');
    const registered = server.app.apiDocs.routes.filter((r) => isDocumentedUrl(r.url));
    expect(registered.length).toBeGreaterThan(30);
    const undocumented = registered.filter(
      (r) => !r.documented || !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()],
    );
    expect(undocumented.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const operations = Object.entries(document.paths).flatMap(([p, ops]) =>
      Object.keys(ops as Json)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    const registeredOps = new Set(registered.map((r) => `${r.method} ${openApiPath(r.url)}`));
    expect(operations.filter((op) => !registeredOps.has(op))).toEqual([]);
    expect(operations.length).toBe(registeredOps.size);
    // The web app's own files are not part of the API.
    expect(Object.keys(document.paths).every((p) => isDocumentedUrl(p))).toBe(true);
  });

  it('declares the zod request schemas: query parameters, JSON bodies, multipart fields and files', () => {
    const op = (p: string, m: string) => document.paths[p][m];
    const params = (p: string, m: string) => (op(p, m).parameters as Json[]).map((x) => `${x.in}:${x.name}`);
    expect(params('/api/images/', 'get')).toEqual(
      expect.arrayContaining(['query:page', 'query:page_size', 'query:folder', 'query:has_ppd']),
    );
    expect(params('/api/predictions/export/', 'get')).toEqual(
      expect.arrayContaining(['query:task_id', 'query:severity', 'query:format']),
    );
    // The calls that take sample-field filters describe them: meta (meta.FIELD=VALUE pairs) and meta_missing.
    for (const p of [
      '/api/predictions/',
      '/api/predictions/summary/',
      '/api/predictions/export/',
      '/api/predictions/groups/',
      '/api/predictions/groups/export/',
      '/api/folders/{id}/images/',
      '/api/images/',
      '/api/images/groups/',
    ]) {
      expect(params(p, 'get'), p).toEqual(expect.arrayContaining(['query:meta', 'query:meta_missing']));
      const meta = (op(p, 'get').parameters as Json[]).find((x) => x.name === 'meta')!;
      expect(meta.schema.propertyNames.pattern).toBe('^meta\\.[A-Za-z0-9_]{1,40}$');
      expect(meta.description).toContain('meta.genotype=TME419');
    }
    expect(params('/api/predictions/summary/', 'get')).toEqual(
      expect.arrayContaining(['query:task_id', 'query:search', 'query:severity', 'query:needs_review']),
    );
    expect(params('/api/predictions/{id}/specimens/{index}/', 'patch')).toEqual(['path:id', 'path:index']);
    const task = op('/api/tasks/prediction/', 'post').requestBody.content['application/json'].schema;
    expect(task.required).toEqual(['name']);
    expect(task.properties.threshold).toMatchObject({ type: 'number', minimum: 0.1, maximum: 1, default: 0.5 });
    const upload = op('/api/images/upload-batch/', 'post').requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(upload.properties.duplicate_action.enum).toEqual(expect.arrayContaining(['skip', 'overwrite']));
    expect(op('/api/predictions/export/', 'get').responses['200'].content).toHaveProperty('text/csv');
    expect(op('/api/folders/', 'post').responses['409'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(document.components.schemas.Error.required).toEqual(['code', 'detail']);
  });

  it('catches an answer that is not what it documents (the check is not vacuous)', () => {
    const task = { id: 1, name: 'x' };
    const found = checkAnswer('GET', '/api/tasks/1/', 200, 'application/json', JSON.stringify(task));
    expect(found.join('\n')).toMatch(/must have required property/);
    expect(checkAnswer('GET', '/api/tasks/1/', 418, 'application/json', '{}').join('\n')).toMatch(/not documented/);
    expect(checkAnswer('GET', '/api/status/', 200, 'text/html', '<p>')).toHaveLength(1);
    // An undocumented key in an answer is a difference too.
    const folder = {
      id: 1,
      name: 'f',
      description: '',
      imageCount: 0,
      createdDate: '2026-01-01T00:00:00.000Z',
      extra: 1,
    };
    expect(checkAnswer('GET', '/api/folders/1/', 200, 'application/json', JSON.stringify(folder)).join('\n')).toMatch(
      /additional properties/,
    );
    exercised.clear();
    answers.clear();
  });
});

describe('real answers validate against the document', () => {
  let folderId: number;
  let sliceIds: number[];
  let pngIds: number[];
  let taskId: number;

  it('the reference page and its files are served from this server', async () => {
    const page = await call('GET', '/api/docs/');
    expect(page.text).toContain('/api/docs/swagger-ui-bundle.js');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    await call('GET', '/api/docs/init.js');
    await call('GET', '/api/docs/swagger-ui.css');
    expect((await call('GET', '/api/docs/nothing.js')).status).toBe(404);
    await call('GET', '/api/openapi.json');
    await call('GET', '/api/status/');
    // The library's figures for the home page (issue 25).
    await call('GET', '/api/figures/');
    // The storage check (issue 26): its last result, and an admin's "check now" (sign-in is off here).
    expect((await call('POST', '/api/storage-check/')).status).toBe(202);
    await call('GET', '/api/storage-check/');
  });

  it('folders: create, list, read, rename, conflicts and bad input', async () => {
    const created = await call('POST', '/api/folders/', { json: { name: 'Field trial', description: 'OpenAPI test' } });
    expect(created.status).toBe(201);
    folderId = created.body.id;
    expect((await call('POST', '/api/folders/', { json: { name: 'field TRIAL' } })).status).toBe(409);
    expect((await call('POST', '/api/folders/', { json: { name: '' } })).status).toBe(400);
    await call('GET', '/api/folders/');
    await call('GET', `/api/folders/${folderId}/`);
    expect((await call('GET', '/api/folders/999999/')).status).toBe(404);
    expect((await call('GET', '/api/folders/abc/')).status).toBe(400);
    expect((await call('PUT', `/api/folders/${folderId}/`, { json: { name: 'Field trial 2026' } })).status).toBe(200);
  });

  it('uploads: a ZIP, a duplicate and its resumed choice, many files, one file, an unsupported file', async () => {
    const slices = await specimenFiles(2, { width: 480, height: 320, seed: 70 });
    const zip = await makeZip([
      ...slices.map((s) => ({ name: `trial/${s.name}`, data: s.bytes })),
      { name: 'notes.txt', data: TEXT_BYTES },
    ]);
    const form = () =>
      formWith([{ field: 'file', name: 'photos.zip', data: zip, type: 'application/zip' }], {
        folder_id: String(folderId),
        resumable: '1',
      });
    const batch = await call('POST', '/api/images/upload-batch/', { form: form() });
    expect(batch.status).toBe(201);
    expect(batch.body.count).toBe(2);
    expect(batch.body.errors[0]).toMatchObject({ name: 'notes.txt', code: 'not_an_image' });
    sliceIds = batch.body.uploaded.map((i: { id: number }) => i.id);

    const again = await call('POST', '/api/images/upload-batch/', { form: form() });
    expect(again.status).toBe(409);
    expect(again.body.duplicates).toHaveLength(2);
    const resumed = await call('POST', '/api/images/upload-resume/', {
      json: { upload_token: again.body.upload_token, duplicate_action: 'skip' },
    });
    expect(resumed.status).toBe(201);
    expect(resumed.body.skipped).toHaveLength(2);
    expect(
      (
        await call('POST', '/api/images/upload-resume/', {
          json: { upload_token: again.body.upload_token, duplicate_action: 'skip' },
        })
      ).status,
    ).toBe(410);
    expect((await call('POST', '/api/images/upload-resume/', { json: { duplicate_action: 'keep' } })).status).toBe(400);
    expect(
      (
        await call('POST', '/api/images/upload-batch/', {
          form: formWith([{ field: 'file', name: 'x.zip', data: TEXT_BYTES }]),
        })
      ).status,
    ).toBe(415);

    const pngs = [await makePng({ seed: 71 }), await makePng({ seed: 72 })];
    const many = await call('POST', '/api/images/upload-files/', {
      form: formWith(pngs.map((data, i) => ({ name: `p${i}.png`, data, type: 'image/png' }))),
    });
    expect(many.status).toBe(201);
    pngIds = many.body.uploaded.map((i: { id: number }) => i.id);
    expect(
      (await call('POST', '/api/images/upload-files/', { form: formWith([{ name: 'a.txt', data: TEXT_BYTES }]) }))
        .status,
    ).toBe(415);
    expect(
      (await call('POST', '/api/images/upload-files/', { form: formWith([{ name: 'p0.png', data: pngs[0]! }]) }))
        .status,
    ).toBe(409);

    const grey = await makeGreyJpeg();
    const one = await call('POST', '/api/images/', {
      form: formWith([{ field: 'file', name: 'grey.jpg', data: grey }], { name: 'grey field.jpg' }),
    });
    expect(one.status).toBe(201);
    const skipped = await call('POST', '/api/images/', {
      form: formWith([{ field: 'file', name: 'grey.jpg', data: grey }], { duplicate_action: 'skip' }),
    });
    expect(skipped.status).toBe(200);
    expect(skipped.body.id).toBe(one.body.id);
  });

  it('images: listing, facets, days, types, groups, one image, moves between folders, bad input', async () => {
    await call('GET', '/api/images/');
    await call('GET', `/api/images/?folder=${folderId}&ordering=name&page_size=1`);
    await call('GET', '/api/images/?folder=none&has_ppd=false');
    expect((await call('GET', '/api/images/?page=abc')).status).toBe(400);
    expect((await call('GET', '/api/images/?day=2026-13-45')).status).toBe(400);
    await call('GET', '/api/images/days/');
    await call('GET', '/api/images/types/');
    await call('GET', '/api/images/groups/?ordering=-size');
    expect((await call('GET', '/api/images/groups/?grouping=week')).status).toBe(400);
    await call('GET', `/api/images/${sliceIds[0]}/`);
    expect((await call('GET', '/api/images/999999/')).status).toBe(404);
    await call('GET', `/api/folders/${folderId}/images/`);
    expect((await call('POST', `/api/folders/${folderId}/add_images/`, { json: { image_ids: pngIds } })).body).toEqual({
      moved: 2,
    });
    expect((await call('POST', '/api/folders//add_images/', { json: { image_ids: [pngIds[1]] } })).body).toEqual({
      moved: 1,
    });
    expect((await call('POST', '/api/folders/none/add_images/', { json: { image_ids: [999999] } })).status).toBe(400);
  });

  it('tasks: start, follow to the end, list, rename, cancel a finished one, refuse bad payloads', async () => {
    const created = await call('POST', '/api/tasks/prediction/', {
      json: { name: 'OpenAPI run', image_ids: sliceIds, folder_ids: null, split_count: 1 },
    });
    expect(created.status).toBe(201);
    taskId = created.body.id;
    const { task } = await waitForTask(server.url, taskId);
    expect(task.status).toBe('completed');
    await call('GET', `/api/tasks/${taskId}/`);
    await call('GET', '/api/tasks/?status=completed&search=openapi');
    expect((await call('GET', '/api/tasks/?status=done')).status).toBe(400);
    expect((await call('PUT', `/api/tasks/${taskId}/`, { json: { name: 'OpenAPI run, renamed' } })).status).toBe(200);
    expect((await call('PATCH', `/api/tasks/${taskId}/`, { json: { name: '' } })).status).toBe(400);
    expect((await call('POST', `/api/tasks/${taskId}/cancel/`)).status).toBe(409);
    expect((await call('POST', '/api/tasks/', { json: { name: 'Nothing', image_ids: [] } })).status).toBe(400);
    expect((await call('POST', '/api/tasks/', { json: { name: 'Unknown', image_ids: [999999] } })).body.code).toBe(
      'unknown_ids',
    );
    expect(
      (await call('POST', '/api/tasks/', { json: { name: 'Bad', image_ids: sliceIds, threshold: '0.5' } })).body.fields,
    ).toHaveProperty('threshold');

    // The other creation routes, each run to its end (a cancel of a running task answers 200, of a finished one 409).
    const others: number[] = [];
    for (const [route, body] of [
      ['/api/tasks/first-segmentation/', { name: 'Cuts', image_ids: [sliceIds[0]] }],
      ['/api/tasks/second-segmentation/', { name: 'Lesions', image_ids: [sliceIds[0]] }],
      ['/api/tasks/', { name: 'Any', folder_ids: [folderId] }],
      ['/api/predictions/predict_batch/', { image_ids: [sliceIds[1]] }],
    ] as const) {
      const res = await call('POST', route, { json: body });
      expect(res.status).toBe(201);
      others.push(res.body.id);
    }
    expect([200, 409]).toContain((await call('POST', `/api/tasks/${others[2]}/cancel/`)).status);
    for (const id of others) await waitForTask(server.url, id);
    await call('GET', '/api/tasks/');
    expect((await call('DELETE', `/api/tasks/${others[3]}/`)).status).toBe(204);
    expect((await call('DELETE', `/api/tasks/${others[3]}/`)).status).toBe(404);
  });

  it('results: listing, one result, summary, CSV exports, a single prediction, review and its history', async () => {
    const list = await call('GET', `/api/predictions/?task_id=${taskId}&ordering=-ppd_value`);
    expect(list.body.count).toBe(2);
    await call('GET', '/api/predictions/?severity=mild&needs_review=false');
    expect((await call('GET', '/api/predictions/?severity=worst')).status).toBe(400);
    const result = list.body.results[0];
    await call('GET', `/api/predictions/${result.id}/`);
    expect((await call('GET', '/api/predictions/999999/')).status).toBe(404);
    await call('GET', `/api/predictions/summary/?task_id=${taskId}`);
    await call('GET', '/api/predictions/summary/');
    await call('GET', `/api/predictions/summary/?task_id=${taskId}&severity=mild&meta_missing=genotype`);
    expect((await call('GET', '/api/predictions/summary/?meta.dah=soon')).status).toBe(400);
    const csv = await call('GET', `/api/predictions/export/?task_id=${taskId}`);
    expect(csv.text).toContain('image_name,ppd_value');
    await call('GET', `/api/predictions/export/?task_id=${taskId}&format=specimens`);
    expect((await call('GET', '/api/predictions/export/?format=xlsx')).status).toBe(400);

    const single = await call('POST', '/api/predictions/predict_single/', { json: { image_id: sliceIds[0] } });
    expect(single.status).toBe(200);
    expect((await call('POST', '/api/predictions/predict_single/', { json: { image_id: 999999 } })).status).toBe(400);

    const reviewed = await call('PATCH', `/api/predictions/${result.id}/specimens/1/`, {
      json: { ppd: 5.5, note: 'checked by eye' },
    });
    expect(reviewed.status).toBe(200);
    expect(
      (await call('PATCH', `/api/predictions/${result.id}/specimens/99/`, { json: { excluded: true } })).status,
    ).toBe(404);
    expect(
      (await call('PATCH', `/api/predictions/${result.id}/specimens/1/`, { json: { note: 'nothing to do' } })).status,
    ).toBe(400);
    const added = await call('POST', `/api/predictions/${result.id}/specimens/`, {
      json: { box: [0, 0, 40, 40], ppd: 2, note: 'missed' },
    });
    expect(added.status).toBe(201);
    expect(
      (await call('POST', `/api/predictions/${result.id}/specimens/`, { json: { box: [0, 0, 4, 4] } })).status,
    ).toBe(400);
    const history = await call('GET', `/api/predictions/${result.id}/history/`);
    expect(history.body.map((h: { change: string }) => h.change)).toEqual(['ppd', 'added']);
  });

  it('sample metadata: edit, pattern preview and apply, a sheet, field menus, filters, groups and their CSV', async () => {
    const patched = await call('PATCH', `/api/images/${sliceIds[0]}/`, {
      json: { metadata: { genotype: 'TME419', dah: 7 } },
    });
    expect(patched.body.metadata).toEqual({ genotype: 'TME419', dah: 7 });
    expect((await call('PATCH', `/api/images/${sliceIds[0]}/`, { json: { metadata: { dah: 'x' } } })).status).toBe(400);
    expect((await call('PATCH', `/api/images/${sliceIds[1]}/`, { json: { name: 'renamed slice.jpg' } })).status).toBe(
      200,
    );
    const parsed = await call('POST', '/api/images/metadata/parse/', {
      json: { pattern: '{genotype}_{n}', image_ids: sliceIds },
    });
    expect(parsed.status).toBe(200);
    expect(
      (await call('POST', '/api/images/metadata/parse/', { json: { pattern: '{genotype', image_ids: sliceIds } }))
        .status,
    ).toBe(400);
    const sheet = formWith([
      { field: 'file', name: 'book.csv', data: Buffer.from('name,rep\nrenamed slice.jpg,2\nnone.jpg,1\n') },
    ]);
    expect((await call('POST', '/api/images/metadata/sheet/', { form: sheet })).body.applied).toBe(1);
    const notSheet = formWith([{ field: 'file', name: 'x.bin', data: Buffer.from([0xff, 0x00, 0xfe]) }]);
    expect((await call('POST', '/api/images/metadata/sheet/', { form: notSheet })).status).toBe(415);
    await call('GET', '/api/images/metadata/fields/');
    await call('GET', '/api/images/metadata/values/?field=genotype');
    await call('GET', '/api/images/?meta.genotype=TME419');
    const groups = await call('GET', `/api/predictions/groups/?by=genotype,dah&task_id=${taskId}`);
    expect(groups.body[0].key).toEqual({ genotype: 'TME419', dah: 7 });
    await call('GET', `/api/predictions/groups/export/?by=genotype`);
    expect((await call('GET', '/api/predictions/groups/')).status).toBe(400);
  });

  it('labels: store, read, replace, the engine proposal, filter, delete, bad input', async () => {
    const id = sliceIds[0]!;
    const image = (await call('GET', `/api/images/${id}/`)).body;
    const values = Buffer.alloc(image.width * image.height, 2);
    values.fill(3, 0, image.width * 4);
    const label = await sharp(values, { raw: { width: image.width, height: image.height, channels: 1 } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const put = await call('PUT', `/api/images/${id}/labels/`, {
      form: formWith([{ field: 'file', name: 'labels.png', data: label }]),
    });
    expect(put.body.counts.lesion).toBe(image.width * 4);
    expect((await call('GET', `/api/images/${id}/labels/`)).status).toBe(200);
    expect((await call('GET', `/api/images/${id}/labels/proposal/`)).status).toBe(200);
    expect((await call('GET', '/api/images/?has_labels=true')).body.count).toBe(1);
    const notPng = formWith([{ field: 'file', name: 'labels.png', data: TEXT_BYTES }]);
    expect((await call('PUT', `/api/images/${id}/labels/`, { form: notPng })).body.code).toBe('invalid_labels');
    expect((await call('PUT', `/api/images/${id}/labels/`, { json: {} })).status).toBe(415);
    expect((await call('DELETE', `/api/images/${id}/labels/`)).status).toBe(204);
    expect((await call('GET', `/api/images/${id}/labels/`)).status).toBe(404);
    expect((await call('DELETE', `/api/images/999999/labels/`)).status).toBe(404);
  });

  it('lab models: train, follow, list, rename, the file and its import, cancel, delete, bad input', async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 2; i++) ids.push(await uploadLabelled(server, `lab_${i}.png`, await labScene(i)));
    const few = await call('POST', '/api/models/', { json: { name: 'Too few', image_ids: [ids[0]] } });
    expect(few.body.code).toBe('not_enough_labels');
    expect((await call('POST', '/api/models/', { json: { name: '' } })).status).toBe(400);
    const created = await call('POST', '/api/models/', { json: { name: 'OpenAPI lab', image_ids: ids } });
    expect(created.status).toBe(202);
    const id = created.body.id as number;
    expect((await waitForModel(server, id)).status).toBe('ready');
    expect((await call('GET', `/api/models/${id}/`)).body.status).toBe('ready');
    expect((await call('GET', '/api/models/')).body.count).toBe(1);
    expect((await call('PATCH', `/api/models/${id}/`, { json: { name: 'Renamed lab' } })).body.name).toBe(
      'Renamed lab',
    );
    expect((await call('POST', `/api/models/${id}/cancel/`)).status).toBe(409);
    expect((await call('GET', `/api/models/${id}/file/`)).status).toBe(200);
    const bytes = Buffer.from(await (await server.request(`/api/models/${id}/file/`)).arrayBuffer());
    const imported = await call('POST', '/api/models/import/', {
      form: formWith([{ field: 'file', name: 'lab.labmodel.json', data: bytes }]),
    });
    expect(imported.status).toBe(201);
    const notModel = formWith([{ field: 'file', name: 'lab.labmodel.json', data: TEXT_BYTES }]);
    expect((await call('POST', '/api/models/import/', { form: notModel })).body.code).toBe('invalid_model');
    const training = await call('POST', '/api/models/', { json: { name: 'To cancel', image_ids: ids } });
    expect((await call('POST', `/api/models/${training.body.id}/cancel/`)).body.status).toBe('cancelled');
    expect((await call('DELETE', `/api/models/${imported.body.id}/`)).status).toBe(204);
    expect((await call('GET', `/api/models/${imported.body.id}/file/`)).status).toBe(404);
  });

  it('media: a stored file, a cached one, a byte range, an unknown key', async () => {
    const image = (await call('GET', `/api/images/${sliceIds[0]}/`)).body;
    if (!image.image_url.startsWith('/media/')) return; // object storage serves the files itself
    const full = await call('GET', image.image_url);
    expect(full.status).toBe(200);
    const etag = full.headers.get('etag');
    if (etag) expect((await call('GET', image.image_url, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    await call('GET', image.image_url, { headers: { Range: 'bytes=0-9' } });
    await call('GET', image.image_url, { headers: { Range: 'bytes=999999999-' } });
    expect((await call('GET', '/media/originals/nothing-here.jpg')).status).toBe(404);
  });

  it('sign-in and users: create, list, change, delete, last admin, sign in and out', async () => {
    const admin = await call('POST', '/api/users/', {
      json: { username: 'doc-admin', password: 'doc-admin-password', role: 'admin' },
    });
    expect(admin.status).toBe(201);
    const viewer = await call('POST', '/api/users/', {
      json: { username: 'doc-viewer', password: 'doc-viewer-password', role: 'viewer' },
    });
    expect(
      (
        await call('POST', '/api/users/', {
          json: { username: 'doc-viewer', password: 'doc-viewer-password', role: 'viewer' },
        })
      ).status,
    ).toBe(409);
    expect(
      (await call('POST', '/api/users/', { json: { username: 'x', password: 'short', role: 'viewer' } })).status,
    ).toBe(400);
    expect((await call('GET', '/api/users/')).body.count).toBe(2);
    expect((await call('PATCH', `/api/users/${viewer.body.id}/`, { json: { role: 'researcher' } })).body.role).toBe(
      'researcher',
    );
    expect((await call('PATCH', `/api/users/${admin.body.id}/`, { json: { role: 'viewer' } })).status).toBe(409);
    expect(
      (await call('POST', '/api/auth/login/', { json: { username: 'doc-viewer', password: 'wrong-password' } })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/api/auth/login/', { json: { username: 'doc-viewer', password: 'doc-viewer-password' } }))
        .status,
    ).toBe(200);
    expect((await call('GET', '/api/auth/me/')).body).toEqual({ user: null, auth: false });
    expect((await call('POST', '/api/auth/logout/')).status).toBe(204);
    expect((await call('DELETE', `/api/users/${viewer.body.id}/`)).status).toBe(204);
    expect((await call('DELETE', `/api/users/${admin.body.id}/`)).status).toBe(409);
  });

  it('security answers and deletes', async () => {
    expect(
      (await call('POST', '/api/folders/', { json: { name: 'Foreign' }, headers: { Origin: 'http://evil.example' } }))
        .status,
    ).toBe(403);
    const foreign = await rawRequest(server.url, 'GET', '/api/status/', { Host: 'evil.example' });
    expect(foreign.status).toBe(421);
    expect(
      checkAnswer('GET', '/api/status/', foreign.status, String(foreign.headers['content-type']), foreign.body),
    ).toEqual([]);
    expect((await call('DELETE', `/api/images/${pngIds[0]}/`)).status).toBe(204);
    expect((await call('DELETE', `/api/folders/${folderId}/?images=move`)).status).toBe(204);
    expect((await call('DELETE', `/api/folders/${folderId}/`)).status).toBe(404);
  });

  it('every documented operation was answered, and every answer matched the document', () => {
    expect(problems).toEqual([]);
    const operations = Object.entries(document.paths).flatMap(([p, ops]) =>
      Object.keys(ops as Json)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(operations.filter((op) => !exercised.has(op))).toEqual([]);
  });
});
