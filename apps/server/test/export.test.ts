import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The CSV export over many rows: results are seeded straight into the real database (the engine is
 * not what this tests), across several export pages, with names that need quoting or escaping.
 */
let server: TestServer;
let taskId: number;
const ROWS = 4_500;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.ctx.db.kysely;
  const now = new Date().toISOString();
  const task = await db
    .insertInto('tasks')
    .values({
      name: 'Seeded',
      name_lower: 'seeded',
      type: 'prediction',
      status: 'completed',
      algorithm: 'deeplabv3plus_resnet101',
      model_type: 'deeplabv3plus_resnet101',
      image_ids: '[]',
      image_count: ROWS,
      parameters: JSON.stringify({
        threshold: 0.5,
        min_size: 100,
        method: 'post',
        use_tta: false,
        morph_kernel_size: 5,
        morph_iterations: 1,
        overlay_opacity: 0.3,
        split_count: 32,
      }),
      error_message: null,
      created_at: now,
      updated_at: now,
      completed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  taskId = task.id;
  const names = ['木薯_1.jpg', 'plain.jpg', 'with,comma.jpg', 'say "hi".jpg', '=SUM(A1).jpg'];
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    const failed = i % 10 === 9;
    const ppd = failed ? null : Math.round(((i * 7) % 120) * 10) / 100;
    const specimens = failed ? [] : seededSpecimens(i, ppd as number);
    rows.push({
      task_id: taskId,
      image_id: i + 1,
      image_name: names[i % names.length]!,
      image_name_lower: names[i % names.length]!.toLowerCase(),
      ppd_value: ppd,
      sub_ppd_values: JSON.stringify(specimens.map((sp) => sp.ppd)),
      prediction: ppd === null ? null : ppd < 4 ? 'healthy' : ppd < 7 ? 'mild' : 'severe',
      confidence: failed ? null : 0.9,
      oss_key: null,
      vis_keys: '{}',
      specimens: JSON.stringify(specimens),
      specimen_count: specimens.length,
      needs_review: specimens.some((sp) => sp.needs_review) ? 1 : 0,
      engine_ppd_value: ppd,
      error_code: failed ? 'decode_failed' : null,
      error_message: failed ? 'bad bytes' : null,
      processing_time: 0.25,
      created_at: now,
    });
  }
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('results')
      .values(rows.slice(i, i + 200))
      .execute();
});
/** Row i's specimens as the server stores them: 1 to 5 of them (i % 5 + 1), every 7th row's first one needs review. */
function seededSpecimens(i: number, ppd: number) {
  return Array.from({ length: (i % 5) + 1 }, (_, k) => ({
    index: k + 1,
    kind: k === 4 ? 'leaf' : 'root_slice',
    box: [10 * k, 5, 40, 30],
    ppd,
    engine_ppd: ppd,
    confidence: 0.9,
    needs_review: k === 0 && i % 7 === 0,
    excluded: false,
    corrected: false,
    source: 'engine',
    cut_key: `results/x/${i}/cut2_${k + 1}.webp`,
    pred_key: `results/x/${i}/pred_${k + 1}.webp`,
  }));
}
const specimenCount = (i: number) => (i % 10 === 9 ? 0 : (i % 5) + 1);
const needsReview = (i: number) => i % 10 !== 9 && i % 7 === 0;

afterAll(async () => {
  await server?.close();
});

/** The body as text with its BOM kept (fetch's text() drops it). */
const bodyText = async (res: Response) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());

/** A minimal RFC 4180 reader for the assertions. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return out;
}

describe('GET /api/predictions/export/', () => {
  it('streams every row of the task in order, quoted and escaped, with the BOM', async () => {
    const res = await server.request(`/api/predictions/export/?task_id=${taskId}`);
    expect(res.status).toBe(200);
    const text = await bodyText(res);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parseCsv(text.slice(1));
    // The seed's eight columns first, unchanged; then the engine's value, the review state, the specimen count
    // and the PPD under the ontology's trait id (no sample fields in this library, so no field columns).
    expect(rows[0]).toEqual([
      'image_name',
      'ppd_value',
      'confidence',
      'prediction',
      'processing_time',
      'sub_ppd_values',
      'task_id',
      'error_code',
      'engine_ppd_value',
      'reviewed',
      'specimen_count',
      'model_name',
      'specimen_kind',
      'PPD|CO_334:0000077',
    ]);
    expect(rows).toHaveLength(ROWS + 1);
    expect(rows[1]).toEqual([
      '木薯_1.jpg',
      '0',
      '0.9',
      'healthy',
      '0.25',
      '0',
      String(taskId),
      '',
      '0',
      'false',
      '1',
      '',
      'auto',
      '0',
    ]);
    expect(rows[3]!.slice(5)).toEqual(['1.4 / 1.4 / 1.4', String(taskId), '', '1.4', 'false', '3', '', 'auto', '1.4']);
    for (let i = 0; i < ROWS; i++) expect(rows[i + 1]![10]).toBe(String(specimenCount(i)));
    expect(rows[3]![0]).toBe('with,comma.jpg');
    expect(rows[4]![0]).toBe('say "hi".jpg');
    expect(rows[5]![0]).toBe("'=SUM(A1).jpg");
    expect(rows[10]).toEqual([
      "'=SUM(A1).jpg",
      '',
      '',
      '',
      '0.25',
      '',
      String(taskId),
      'decode_failed',
      '',
      'false',
      '0',
      '',
      'auto',
      '',
    ]);
    expect(rows[ROWS]![0]).toBe(
      ['木薯_1.jpg', 'plain.jpg', 'with,comma.jpg', 'say "hi".jpg', "'=SUM(A1).jpg"][(ROWS - 1) % 5],
    );
  });

  it('exports everything without task_id, an empty file for an unknown task, 400 for a bad one', async () => {
    const all = await server.request('/api/predictions/export/');
    expect(parseCsv((await bodyText(all)).slice(1))).toHaveLength(ROWS + 1);
    const none = await server.request('/api/predictions/export/?task_id=999999');
    expect(parseCsv((await bodyText(none)).slice(1))).toHaveLength(1);
    const bad = await server.json('/api/predictions/export/?task_id=x');
    expect(bad.status).toBe(400);
    expect(bad.body.fields.task_id).toBeTruthy();
  });

  it('takes the listing filters (search, severity): the file holds exactly the rows the listing counts', async () => {
    for (const q of [
      'severity=mild',
      'search=COMMA',
      'search=%E6%9C%A8%E8%96%AF&severity=severe',
      'severity=healthy&search=plain',
    ]) {
      const listed = await server.json(`/api/predictions/?task_id=${taskId}&${q}&page_size=1`);
      const rows = parseCsv(
        (await bodyText(await server.request(`/api/predictions/export/?task_id=${taskId}&${q}`))).slice(1),
      );
      expect(listed.body.count).toBeGreaterThan(0);
      expect(rows).toHaveLength(listed.body.count + 1);
      if (q.startsWith('severity=mild')) expect(rows.slice(1).every((r) => r[3] === 'mild')).toBe(true);
      if (q === 'search=COMMA') expect(rows.slice(1).every((r) => r[0] === 'with,comma.jpg')).toBe(true);
    }
    const bad = await server.json('/api/predictions/export/?severity=awful');
    expect(bad.status).toBe(400);
    expect(bad.body.fields.severity).toBeTruthy();
  });

  it('format=specimens streams one row per specimen, in result order, with the same filters', async () => {
    const res = await server.request(`/api/predictions/export/?task_id=${taskId}&format=specimens`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="prediction_results_\d+_\d{4}-\d\d-\d\d\.csv"$/,
    );
    const text = await bodyText(res);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parseCsv(text.slice(1));
    expect(rows[0]).toEqual([
      'image_name',
      'task_id',
      'index',
      'kind',
      'ppd',
      'engine_ppd',
      'confidence',
      'excluded',
      'corrected',
      'needs_review',
      'box',
      'note',
      'image_id',
      'band',
    ]);
    let total = 0;
    for (let i = 0; i < ROWS; i++) total += specimenCount(i);
    expect(rows).toHaveLength(total + 1);
    expect(rows[1]).toEqual([
      '木薯_1.jpg',
      String(taskId),
      '1',
      'root_slice',
      '0',
      '0',
      '0.9',
      'false',
      'false',
      'true',
      '0 5 40 30',
      '',
      '1',
      'healthy',
    ]);
    // Row 4 (index 4 in the seed) has five specimens, the fifth a leaf; names are quoted and escaped as in the result file.
    const fifth = rows.find((r) => r[0] === "'=SUM(A1).jpg" && r[2] === '5')!;
    expect(fifth).toEqual([
      "'=SUM(A1).jpg",
      String(taskId),
      '5',
      'leaf',
      '2.8',
      '2.8',
      '0.9',
      'false',
      'false',
      'false',
      '40 5 40 30',
      '',
      String(fifth[12]),
      'healthy',
    ]);
    expect(rows.filter((r) => r[0] === 'say "hi".jpg').length).toBeGreaterThan(0);
    // Filters narrow it like the listing: the flagged results' specimens only.
    const flagged = parseCsv(
      (
        await bodyText(
          await server.request(`/api/predictions/export/?task_id=${taskId}&format=specimens&needs_review=true`),
        )
      ).slice(1),
    );
    let flaggedTotal = 0;
    for (let i = 0; i < ROWS; i++) if (needsReview(i)) flaggedTotal += specimenCount(i);
    expect(flagged).toHaveLength(flaggedTotal + 1);
  });

  it('filters the listing and the export by needs_review and reviewed', async () => {
    let flaggedCount = 0;
    for (let i = 0; i < ROWS; i++) if (needsReview(i)) flaggedCount++;
    const flagged = await server.json(`/api/predictions/?task_id=${taskId}&needs_review=true&page_size=1000`);
    expect(flagged.status).toBe(200);
    expect(flagged.body.count).toBe(flaggedCount);
    expect(flagged.body.results.every((r: any) => r.needs_review && r.specimens[0].needs_review)).toBe(true);
    const clear = await server.json(`/api/predictions/?task_id=${taskId}&needs_review=false&page_size=1`);
    expect(clear.body.count).toBe(ROWS - flaggedCount);
    const rows = parseCsv(
      (await bodyText(await server.request(`/api/predictions/export/?task_id=${taskId}&needs_review=true`))).slice(1),
    );
    expect(rows).toHaveLength(flaggedCount + 1);
    // With severity too: both apply.
    const both = await server.json(`/api/predictions/?task_id=${taskId}&needs_review=true&severity=severe&page_size=1`);
    const bothRows = parseCsv(
      (
        await bodyText(
          await server.request(`/api/predictions/export/?task_id=${taskId}&needs_review=true&severity=severe`),
        )
      ).slice(1),
    );
    expect(bothRows).toHaveLength(both.body.count + 1);
    expect(bothRows.slice(1).every((r) => r[3] === 'severe')).toBe(true);
    expect((await server.json(`/api/predictions/?task_id=${taskId}&reviewed=true`)).body.count).toBe(0);
    expect((await server.json(`/api/predictions/?task_id=${taskId}&reviewed=false`)).body.count).toBe(ROWS);
    expect(
      parseCsv(
        (await bodyText(await server.request(`/api/predictions/export/?task_id=${taskId}&reviewed=true`))).slice(1),
      ),
    ).toHaveLength(1);
    const bad = await server.json('/api/predictions/export/?needs_review=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.fields.needs_review).toBeTruthy();
  });

  it('the summary agrees with the rows', async () => {
    const s = (await server.json(`/api/predictions/summary/?task_id=${taskId}`)).body;
    expect(s.count).toBe(ROWS - ROWS / 10);
    const sum = Object.values(s.histogram as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(sum).toBe(s.count);
    expect(s.bands.healthy).toBe(s.histogram['0-4']);
    expect(s.bands.mild).toBe(s.histogram['4-7']);
    expect(s.bands.severe).toBe(s.histogram['7-8'] + s.histogram['8-10'] + s.histogram['>=10']);
    expect(s.max).toBe(11.9);
    expect(s.min).toBe(0);
    // Half-open bins, counted here from the same seeded values: 4, 7, 8 and 10 open their bin.
    const expected = { '0-4': 0, '4-7': 0, '7-8': 0, '8-10': 0, '>=10': 0 };
    for (let i = 0; i < ROWS; i++) {
      if (i % 10 === 9) continue;
      const v = Math.round(((i * 7) % 120) * 10) / 100;
      const key = v < 4 ? '0-4' : v < 7 ? '4-7' : v < 8 ? '7-8' : v < 10 ? '8-10' : '>=10';
      expected[key]++;
    }
    expect(s.histogram).toEqual(expected);
  });
});
