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
      parameters: JSON.stringify({ threshold: 0.5, min_size: 100, method: 'post', use_tta: false, morph_kernel_size: 5, morph_iterations: 1, overlay_opacity: 0.3, split_count: 32 }),
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
    rows.push({
      task_id: taskId,
      image_id: i + 1,
      image_name: names[i % names.length]!,
      image_name_lower: names[i % names.length]!.toLowerCase(),
      ppd_value: ppd,
      sub_ppd_values: failed ? '[]' : JSON.stringify([ppd, ppd, ppd]),
      prediction: ppd === null ? null : ppd < 4 ? 'healthy' : ppd < 7 ? 'mild' : 'severe',
      confidence: failed ? null : 0.9,
      oss_key: null,
      vis_keys: '{}',
      error_code: failed ? 'decode_failed' : null,
      error_message: failed ? 'bad bytes' : null,
      processing_time: 0.25,
      created_at: now,
    });
  }
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('results').values(rows.slice(i, i + 200)).execute();
});
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
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), out.push(row), (row = []), (cell = ''), i++;
    else cell += c;
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
    expect(rows[0]).toEqual(['image_name', 'ppd_value', 'confidence', 'prediction', 'processing_time', 'sub_ppd_values', 'task_id', 'error_code']);
    expect(rows).toHaveLength(ROWS + 1);
    expect(rows[1]).toEqual(['木薯_1.jpg', '0', '0.9', 'healthy', '0.25', '0 / 0 / 0', String(taskId), '']);
    expect(rows[3]![0]).toBe('with,comma.jpg');
    expect(rows[4]![0]).toBe('say "hi".jpg');
    expect(rows[5]![0]).toBe("'=SUM(A1).jpg");
    expect(rows[10]).toEqual(["'=SUM(A1).jpg", '', '', '', '0.25', '', String(taskId), 'decode_failed']);
    expect(rows[ROWS]![0]).toBe(['木薯_1.jpg', 'plain.jpg', 'with,comma.jpg', 'say "hi".jpg', "'=SUM(A1).jpg"][(ROWS - 1) % 5]);
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
    for (const q of ['severity=mild', 'search=COMMA', 'search=%E6%9C%A8%E8%96%AF&severity=severe', 'severity=healthy&search=plain']) {
      const listed = await server.json(`/api/predictions/?task_id=${taskId}&${q}&page_size=1`);
      const rows = parseCsv((await bodyText(await server.request(`/api/predictions/export/?task_id=${taskId}&${q}`))).slice(1));
      expect(listed.body.count).toBeGreaterThan(0);
      expect(rows).toHaveLength(listed.body.count + 1);
      if (q.startsWith('severity=mild')) expect(rows.slice(1).every((r) => r[3] === 'mild')).toBe(true);
      if (q === 'search=COMMA') expect(rows.slice(1).every((r) => r[0] === 'with,comma.jpg')).toBe(true);
    }
    const bad = await server.json('/api/predictions/export/?severity=awful');
    expect(bad.status).toBe(400);
    expect(bad.body.fields.severity).toBeTruthy();
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
