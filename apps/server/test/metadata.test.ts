import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertImageRow } from './helpers/image-rows.js';
import { formWith, TEXT_BYTES } from './helpers/fixtures.js';
import { makeGreyJpeg, makeSpecimenJpeg, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Sample metadata (api.md "Sample metadata", issue 17): fields set by PATCH, by a file-name pattern and by a
 * sheet; `meta.FIELD=VALUE` filters; the per-genotype group summary over a task the real engine scored; the
 * export's field columns. Runs on SQLite and, in the full suite, on PostgreSQL.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function clearLibrary() {
  await server.ctx.db.kysely.deleteFrom('results').execute();
  await server.ctx.db.kysely.deleteFrom('tasks').execute();
  await server.ctx.db.kysely.deleteFrom('images').execute();
}

/** Seeds image rows (no files) with these names; returns their ids by name. */
async function seedNames(names: string[], folderId: number | null = null): Promise<Record<string, number>> {
  for (const name of names) await insertImageRow(server, { name, folderId });
  const list = await server.json('/api/images/?page_size=1000');
  return Object.fromEntries(list.body.results.map((i: any) => [i.name, i.id]));
}

const patch = (id: number, body: unknown) => server.json(`/api/images/${id}/`, { method: 'PATCH', body: body as any });
const metadataOf = async (id: number) => (await server.json(`/api/images/${id}/`)).body.metadata;

function sheetForm(name: string, bytes: Buffer, fields: Record<string, string> = {}) {
  return formWith([{ field: 'file', name, data: bytes, type: 'application/octet-stream' }], fields);
}
const postSheet = (form: FormData) => server.json('/api/images/metadata/sheet/', { method: 'POST', body: form });

describe('PATCH /images/{id}/', () => {
  beforeEach(clearLibrary);

  it('sets, types, replaces and removes fields; every image response carries metadata ({} when none)', async () => {
    const ids = await seedNames(['TME419_2_7d_R1.jpg']);
    const id = ids['TME419_2_7d_R1.jpg']!;
    expect(await metadataOf(id)).toEqual({});
    expect((await server.json('/api/images/')).body.results[0].metadata).toEqual({});

    const set = await patch(id, {
      metadata: { genotype: 'TME419', rep: '2', dah: 7, root: 'R1', harvest_date: '2026-11-02', note: ' wet ' },
    });
    expect(set.status).toBe(200);
    // A value that looks like a number is a number; text is trimmed; a date stays YYYY-MM-DD.
    expect(set.body.metadata).toEqual({
      genotype: 'TME419',
      rep: 2,
      dah: 7,
      root: 'R1',
      harvest_date: '2026-11-02',
      note: 'wet',
    });

    const changed = await patch(id, { metadata: { dah: 14, note: null } });
    expect(changed.body.metadata).toEqual({
      genotype: 'TME419',
      rep: 2,
      dah: 14,
      root: 'R1',
      harvest_date: '2026-11-02',
    });
    expect((await server.json('/api/images/')).body.results[0].metadata).toEqual(changed.body.metadata);
  });

  it('refuses bad names and values with a 400 naming the field, and changes nothing', async () => {
    const id = (await seedNames(['a.jpg']))['a.jpg']!;
    await patch(id, { metadata: { genotype: 'TME419' } });
    const cases: [unknown, string][] = [
      [{ metadata: { dah: 'seven' } }, 'metadata.dah'],
      [{ metadata: { rep: -1 } }, 'metadata.rep'],
      [{ metadata: { harvest_date: '2026-02-30' } }, 'metadata.harvest_date'],
      [{ metadata: { harvest_date: 12 } }, 'metadata.harvest_date'],
      [{ metadata: { 'bad name': 1 } }, 'metadata.bad name'],
      [{ metadata: { genotype: 'x'.repeat(201) } }, 'metadata.genotype'],
      [{ metadata: { genotype: { nested: 1 } } }, 'metadata.genotype'],
      [{ metadata: { genotype: 'TME2', dah: 'x' } }, 'metadata.dah'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(Object.keys(res.body.fields)).toContain(field);
    }
    // The last case had a good genotype too: nothing of it was stored.
    expect(await metadataOf(id)).toEqual({ genotype: 'TME419' });
    expect((await patch(999_999, { metadata: { genotype: 'x' } })).status).toBe(404);
  });

  it('renames under the upload rules: trimmed NFC base name, unique in its folder (409 duplicate)', async () => {
    const ids = await seedNames(['one.jpg', 'two.jpg']);
    const renamed = await patch(ids['one.jpg']!, { name: ' dir/Cafe\u0301.jpg ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Caf\u00e9.jpg');
    expect((await server.json('/api/images/?search=caf')).body.count).toBe(1);
    const taken = await patch(ids['two.jpg']!, { name: 'Caf\u00e9.jpg', metadata: { genotype: 'A' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'duplicate', duplicates: ['Caf\u00e9.jpg'] });
    expect(await metadataOf(ids['two.jpg']!)).toEqual({});
    expect((await patch(ids['two.jpg']!, { name: '   ' })).body.fields).toHaveProperty('name');
  });
});

describe('uploads and metadata', () => {
  beforeEach(clearLibrary);

  it('an overwritten image keeps its fields (same id), and every upload answer carries metadata', async () => {
    const first = await server.json('/api/images/upload-files/', {
      method: 'POST',
      body: formWith([{ name: 'TME419_1.jpg', data: await makeSpecimenJpeg({ seed: 1 }) }]),
    });
    expect(first.body.uploaded[0].metadata).toEqual({});
    const id = first.body.uploaded[0].id;
    await patch(id, { metadata: { genotype: 'TME419', rep: 1 } });
    const again = await server.json('/api/images/upload-files/', {
      method: 'POST',
      body: formWith([{ name: 'TME419_1.jpg', data: await makeSpecimenJpeg({ seed: 2 }) }], {
        duplicate_action: 'overwrite',
      }),
    });
    expect(again.status).toBe(201);
    expect(again.body.uploaded[0]).toMatchObject({ id, metadata: { genotype: 'TME419', rep: 1 } });
    const skipped = await server.json('/api/images/', {
      method: 'POST',
      body: formWith([{ field: 'file', name: 'TME419_1.jpg', data: await makeSpecimenJpeg({ seed: 2 }) }], {
        duplicate_action: 'skip',
      }),
    });
    expect(skipped.body).toMatchObject({ id, metadata: { genotype: 'TME419', rep: 1 } });
    // Deleting the image drops its fields with it.
    expect((await server.request(`/api/images/${id}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.json('/api/images/metadata/fields/')).body).toEqual([]);
  });
});

describe('POST /images/metadata/parse/', () => {
  beforeEach(clearLibrary);

  it('previews what a pattern extracts (shortest runs), lists the names that do not match, and applies in one step', async () => {
    const ids = await seedNames(['TME419_2_7d_R1.jpg', 'IBA_30572_1_14d_R2.png', 'notes.jpg', 'TME419_3_x_R1.jpg']);
    const all = Object.values(ids);
    const preview = await server.json('/api/images/metadata/parse/', {
      method: 'POST',
      body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: all },
    });
    expect(preview.status).toBe(200);
    const byName = Object.fromEntries(preview.body.matched.map((m: any) => [m.name, m.metadata]));
    expect(byName['TME419_2_7d_R1.jpg']).toEqual({ genotype: 'TME419', rep: 2, dah: 7, root: 'R1' });
    // Each field takes the shortest run that lets the rest match: genotype "IBA", rep "30572", so dah is "1_14",
    // which is not a number: the preview says so (apply would refuse it).
    const iba = preview.body.matched.find((m: any) => m.name === 'IBA_30572_1_14d_R2.png');
    expect(iba.metadata).toEqual({ genotype: 'IBA', rep: 30572, dah: '1_14', root: 'R2' });
    expect(Object.keys(iba.problems)).toEqual(['dah']);
    expect(preview.body.unmatched.map((u: any) => u.name).sort()).toEqual(['TME419_3_x_R1.jpg', 'notes.jpg']);
    // A preview stores nothing.
    expect(await metadataOf(ids['TME419_2_7d_R1.jpg']!)).toEqual({});

    const applied = await server.json('/api/images/metadata/parse/', {
      method: 'POST',
      body: {
        pattern: '{genotype}_{*}_{dah}d_{root}',
        image_ids: [ids['TME419_2_7d_R1.jpg'], ids['notes.jpg']],
        apply: true,
      },
    });
    expect(applied.status).toBe(200);
    expect(applied.body.applied).toBe(1);
    expect(await metadataOf(ids['TME419_2_7d_R1.jpg']!)).toEqual({ genotype: 'TME419', dah: 7, root: 'R1' });
    expect(await metadataOf(ids['notes.jpg']!)).toEqual({});
  });

  it('a bad pattern is a 400 naming pattern; with apply, a value that does not fit its field is a 400 and nothing is stored', async () => {
    const ids = await seedNames(['A_7.jpg', 'B_x.jpg']);
    for (const pattern of ['no fields', '{genotype', 'genotype}', '{geno type}', '{a}_{a}', '']) {
      const res = await server.json('/api/images/metadata/parse/', {
        method: 'POST',
        body: { pattern, image_ids: Object.values(ids) },
      });
      expect(res.status, pattern).toBe(400);
      expect(res.body.fields).toHaveProperty('pattern');
    }
    const body = { pattern: '{genotype}_{dah}', image_ids: Object.values(ids) };
    const preview = await server.json('/api/images/metadata/parse/', { method: 'POST', body });
    expect(preview.body.matched.find((m: any) => m.name === 'B_x.jpg').problems).toHaveProperty('dah');
    const refused = await server.json('/api/images/metadata/parse/', {
      method: 'POST',
      body: { ...body, apply: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toHaveProperty('pattern');
    expect(await metadataOf(ids['A_7.jpg']!)).toEqual({});

    const unknown = await server.json('/api/images/metadata/parse/', {
      method: 'POST',
      body: { pattern: '{a}', image_ids: [999_999] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_ids', ids: [999_999] });
    expect(
      (
        await server.json('/api/images/metadata/parse/', {
          method: 'POST',
          body: { pattern: '{a}', folder_id: 999_999 },
        })
      ).body.code,
    ).toBe('unknown_ids');
    expect(
      (await server.json('/api/images/metadata/parse/', { method: 'POST', body: { pattern: '{a}' } })).status,
    ).toBe(400);
  });
});

describe('POST /images/metadata/sheet/', () => {
  beforeEach(clearLibrary);

  it('applies a CSV with BOM row by row and reports unknown and ambiguous names', async () => {
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: `Sheet ${Date.now()}` } })).body
      .id;
    const ids = await seedNames(['p1.jpg', 'p2.jpg', 'dup.jpg']);
    await insertImageRow(server, { name: 'dup.jpg', folderId: folder });
    const csv =
      '\uFEFFname,Genotype,rep,dah,harvest_date,plot\r\np1.jpg,TME419,1,7,2026-11-02,"P,1"\r\np2,TME693,2,,,\r\nmissing.jpg,X,1,1,,\r\ndup.jpg,Y,1,1,,\r\n';
    const res = await postSheet(sheetForm('book.csv', Buffer.from(csv, 'utf8')));
    expect(res.status).toBe(200);
    expect(res.body.applied).toBe(2);
    expect(res.body.rows.map((r: any) => [r.row, r.name, r.status])).toEqual([
      [2, 'p1.jpg', 'applied'],
      [3, 'p2', 'applied'],
      [4, 'missing.jpg', 'unknown_file'],
      [5, 'dup.jpg', 'ambiguous'],
    ]);
    expect(await metadataOf(ids['p1.jpg']!)).toEqual({
      genotype: 'TME419',
      rep: 1,
      dah: 7,
      harvest_date: '2026-11-02',
      plot: 'P,1',
    });
    // A row without an extension matches the file's name without it; empty cells set nothing.
    expect(await metadataOf(ids['p2.jpg']!)).toEqual({ genotype: 'TME693', rep: 2 });
    // folder_id scopes the names: dup.jpg is then one image.
    const scoped = await postSheet(
      sheetForm('book.csv', Buffer.from('file_name;genotype\ndup.jpg;Z\n'), { folder_id: String(folder) }),
    );
    expect(scoped.body.rows[0]).toMatchObject({ status: 'applied', row: 2 });
  });

  it('with a bad value nothing is applied unless partial=1; XLSX sheets (dates, numbers) work the same', async () => {
    const ids = await seedNames(['a.jpg', 'b.jpg', 'c.jpg']);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Field book');
    sheet.addRow(['name', 'genotype', 'dah', 'harvest_date']);
    sheet.addRow(['a.jpg', 'TME419', 7, new Date(Date.UTC(2026, 10, 2))]);
    sheet.addRow(['b.jpg', 'TME693', 'soon', null]);
    sheet.addRow(['c.jpg', 'TMS30572', 14, null]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());

    const blocked = await postSheet(sheetForm('book.xlsx', xlsx));
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ applied: 0, committed: false });
    expect(blocked.body.rows.map((r: any) => r.status)).toEqual(['applied', 'bad_value', 'applied']);
    expect(blocked.body.rows[1].detail).toMatch(/dah/);
    expect(await metadataOf(ids['a.jpg']!)).toEqual({});

    const partial = await postSheet(sheetForm('book.xlsx', xlsx, { partial: '1' }));
    expect(partial.body).toMatchObject({ applied: 2, committed: true });
    expect(await metadataOf(ids['a.jpg']!)).toEqual({ genotype: 'TME419', dah: 7, harvest_date: '2026-11-02' });
    expect(await metadataOf(ids['b.jpg']!)).toEqual({});
    expect(await metadataOf(ids['c.jpg']!)).toEqual({ genotype: 'TMS30572', dah: 14 });
  });

  it('refuses a sheet without a name column (400), bad column names (400), other files (415) and no file (400)', async () => {
    await seedNames(['a.jpg']);
    const noName = await postSheet(sheetForm('x.csv', Buffer.from('genotype,dah\nA,1\n')));
    expect(noName.status).toBe(400);
    expect(noName.body.fields).toHaveProperty('file');
    expect((await postSheet(sheetForm('x.csv', Buffer.from('name,geno type\na.jpg,A\n')))).status).toBe(400);
    const binary = await postSheet(sheetForm('x.bin', Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x00])));
    expect(binary.status).toBe(415);
    expect(
      (await postSheet(sheetForm('x.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), TEXT_BYTES])))).status,
    ).toBe(415);
    expect(
      (await server.json('/api/images/metadata/sheet/', { method: 'POST', body: formWith([], { partial: '1' }) }))
        .status,
    ).toBe(400);
    expect(await metadataOf(Object.values(await seedNames([]))[0]!)).toEqual({});
  });
});

describe('meta.FIELD=VALUE filters', () => {
  beforeEach(clearLibrary);

  it('filters the images listing by one or more fields (AND), typed like stored values; bad ones are a 400', async () => {
    const ids = await seedNames(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    await patch(ids['a.jpg']!, { metadata: { genotype: 'TME419', dah: 7 } });
    await patch(ids['b.jpg']!, { metadata: { genotype: 'TME419', dah: 14 } });
    await patch(ids['c.jpg']!, { metadata: { genotype: 'TME693', dah: 7 } });
    const names = async (q: string) =>
      (await server.json(`/api/images/?${q}`)).body.results.map((i: any) => i.name).sort();
    expect(await names('meta.genotype=TME419')).toEqual(['a.jpg', 'b.jpg']);
    expect(await names('meta.genotype=TME419&meta.dah=7')).toEqual(['a.jpg']);
    expect(await names('meta.dah=7.0')).toEqual(['a.jpg', 'c.jpg']);
    expect(await names('meta.genotype=tme419')).toEqual([]);
    expect((await server.json('/api/images/?meta.genotype=TME419')).body.count).toBe(2);
    expect(await names('meta.genotype=')).toHaveLength(4);
    const bad = await server.json('/api/images/?meta.dah=soon');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty(['meta.dah']);
    expect((await server.json('/api/images/?meta.bad-name=1')).status).toBe(400);
    // The fields in use, for the screens' menus.
    expect((await server.json('/api/images/metadata/fields/')).body).toEqual([
      { field: 'dah', count: 3 },
      { field: 'genotype', count: 3 },
    ]);
    expect((await server.json('/api/images/metadata/values/?field=genotype')).body).toEqual([
      { value: 'TME419', count: 2 },
      { value: 'TME693', count: 1 },
    ]);
  });
});

describe('GET /predictions/groups/ and the export over a task the engine scored', () => {
  let taskId: number;
  const names = [
    'TME419_1_7d_R1.jpg',
    'TME419_2_7d_R1.jpg',
    'TME419_3_7d_R2.jpg',
    'TME419_1_14d_R1.jpg',
    'TME693_1_7d_R1.jpg',
    'TME693_2_7d_R1.jpg',
    'loose.jpg',
  ];

  beforeAll(async () => {
    await clearLibrary();
    const files = await Promise.all(
      names.map(async (name, i) => ({
        name,
        bytes: await makeSpecimenJpeg({ width: 360, height: 240, seed: 3 + i * 5 }),
      })),
    );
    files.push({ name: 'TME693_9_7d_R9.jpg', bytes: await makeGreyJpeg() });
    const uploaded = await uploadFiles(server.url, files);
    const parse = await server.json('/api/images/metadata/parse/', {
      method: 'POST',
      body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: uploaded.map((u) => u.id), apply: true },
    });
    expect(parse.body.applied).toBe(7);
    const task = await server.json('/api/tasks/prediction/', {
      method: 'POST',
      body: { name: 'Genotypes', image_ids: uploaded.map((u) => u.id), split_count: 4 },
    });
    expect(task.status).toBe(201);
    taskId = task.body.id;
    expect((await waitForTask(server.url, taskId)).task.status).toBe('completed');
  });

  /** The scored results of the task, read through the listing. */
  async function scored(query = '') {
    const list = await server.json(`/api/predictions/?task_id=${taskId}&page_size=100${query}`);
    return list.body.results.filter((r: any) => r.ppd_value !== null) as any[];
  }

  it('gives n, mean, SD, 95 % interval (t) and bands per genotype over scored results, the null group last', async () => {
    const res = await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}`);
    expect(res.status).toBe(200);
    expect(res.body.map((g: any) => g.key)).toEqual([
      { genotype: 'TME419' },
      { genotype: 'TME693' },
      { genotype: null },
    ]);
    const results = await scored();
    const tme419 = results.filter((r) => r.imageName.startsWith('TME419_'));
    expect(tme419).toHaveLength(4);
    const values = tme419.map((r) => r.ppd_value as number);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
    const half = 3.1824 * (sd / Math.sqrt(4)); // t(0.975, 3 df)
    const g = res.body[0];
    expect(g.images).toBe(4);
    expect(g.specimens).toBe(tme419.reduce((a, r) => a + r.sub_ppd_values.length, 0));
    expect(g.mean).toBeCloseTo(mean, 3);
    expect(g.sd).toBeCloseTo(sd, 3);
    expect(g.ci95[0]).toBeCloseTo(mean - half, 2);
    expect(g.ci95[1]).toBeCloseTo(mean + half, 2);
    expect(g.bands.healthy + g.bands.mild + g.bands.severe).toBe(4);
    // The grey photo failed: it is in no group (TME693 has its two scored images), loose.jpg is the null group.
    expect(res.body[1].images).toBe(2);
    expect(res.body[2]).toMatchObject({ images: 1, sd: null, ci95: null });
  });

  it('groups by two fields, follows review changes, takes the listing filters; bad by is a 400', async () => {
    const two = await server.json(`/api/predictions/groups/?by=genotype,dah&task_id=${taskId}`);
    expect(two.body.map((g: any) => [g.key.genotype, g.key.dah, g.images])).toEqual([
      ['TME419', 7, 3],
      ['TME419', 14, 1],
      ['TME693', 7, 2],
      [null, null, 1],
    ]);
    const filtered = await server.json(
      `/api/predictions/groups/?by=rep&task_id=${taskId}&meta.genotype=TME419&meta.dah=7`,
    );
    expect(filtered.body.map((g: any) => g.key.rep)).toEqual([1, 2, 3]);

    // A reviewer sets every slice of one TME693 photo to 10: the group's mean follows the reviewed values.
    const result = (await scored('&meta.genotype=TME693'))[0];
    for (const s of result.specimens) {
      await server.json(`/api/predictions/${result.id}/specimens/${s.index}/`, { method: 'PATCH', body: { ppd: 10 } });
    }
    const after = (await scored('&meta.genotype=TME693')).map((r) => r.ppd_value as number);
    expect(after).toContain(10);
    const group = (await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}&meta.genotype=TME693`))
      .body;
    expect(group).toHaveLength(1);
    expect(group[0].mean).toBeCloseTo((after[0]! + after[1]!) / 2, 3);
    expect(group[0].bands.severe).toBeGreaterThanOrEqual(1);
    // Excluding a slice: one specimen fewer in the group.
    const before = group[0].specimens;
    expect(
      (await server.json(`/api/predictions/${result.id}/specimens/1/`, { method: 'PATCH', body: { excluded: true } }))
        .status,
    ).toBe(200);
    const excluded = (await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}&meta.genotype=TME693`))
      .body;
    expect(excluded[0].specimens).toBe(before - 1);

    for (const q of ['', 'by=', 'by=a,b,c', 'by=bad-name', 'by=genotype,genotype', 'by=genotype&task_id=abc']) {
      const res = await server.json(`/api/predictions/groups/?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('exports the group table and the results with their fields under ontology names and the PPD trait id', async () => {
    const groups = await server.request(`/api/predictions/groups/export/?by=genotype&task_id=${taskId}`);
    expect(groups.status).toBe(200);
    expect(groups.headers.get('content-type')).toMatch(/^text\/csv/);
    const table = (await groups.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(table[0]).toEqual([
      'germplasmName',
      'images',
      'specimens',
      'PPD|CO_334:0000077',
      'sd',
      'ci95_low',
      'ci95_high',
      'healthy',
      'mild',
      'severe',
    ]);
    const json = (await server.json(`/api/predictions/groups/?by=genotype&task_id=${taskId}`)).body;
    expect(table.slice(1).map((r) => [r[0], Number(r[1]), Number(r[3])])).toEqual(
      json.map((g: any) => [g.key.genotype ?? '', g.images, g.mean]),
    );

    const res = await server.request(`/api/predictions/export/?task_id=${taskId}&meta.genotype=TME419`);
    const rows = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    // After the fixed columns and the engine's (model_name, specimen_kind): the trait, then the fields.
    expect(rows[0]!.slice(11, 13)).toEqual(['model_name', 'specimen_kind']);
    expect(rows[0]!.slice(13)).toEqual([
      'PPD|CO_334:0000077',
      'germplasmName',
      'replicate',
      'rootNumber',
      'days_after_harvest',
    ]);
    expect(rows).toHaveLength(5);
    const first = rows.find((r) => r[0] === 'TME419_3_7d_R2.jpg')!;
    expect(first.slice(14)).toEqual(['TME419', '3', 'R2', '7']);
    expect(first[13]).toBe(first[1]);
  });
});
