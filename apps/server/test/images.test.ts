import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImagesRepository } from '../src/images/images.repository.js';
import { storedState } from './helpers/data-dir.js';
import { formWith, makeJpeg } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let server: TestServer;
let counter = 0;

interface Seed {
  name: string;
  folder?: number | null;
  size?: number;
  format?: string;
  created?: string;
  ppd?: number | null;
}

/** Rows straight into the real database: listing rules do not need real pixels. */
async function seed(s: Seed): Promise<number> {
  counter += 1;
  const sha = String(counter).padStart(64, 'a');
  const folderSort = s.folder
    ? (
        await server.ctx.db.kysely
          .selectFrom('folders')
          .select('name_sort')
          .where('id', '=', s.folder)
          .executeTakeFirstOrThrow()
      ).name_sort
    : '';
  const row = await new ImagesRepository(server.ctx.db.kysely, server.ctx.db.dialect).insert({
    name: s.name,
    name_lower: s.name.toLowerCase(),
    folder_id: s.folder ?? null,
    folder_sort: folderSort,
    size: s.size ?? 1000,
    format: s.format ?? 'jpeg',
    width: 10,
    height: 10,
    sha256: sha,
    blob_key: `originals/aa/${sha}.jpg`,
    thumb_key: `thumbs/aa/${sha}.webp`,
    created_at: s.created ?? new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
  });
  if (s.ppd !== undefined && s.ppd !== null) {
    await server.ctx.db.kysely
      .updateTable('images')
      .set({ ppd_value: s.ppd, last_prediction: s.ppd >= 7 ? 'severe' : s.ppd >= 4 ? 'mild' : 'healthy' })
      .where('id', '=', row.id)
      .execute();
  }
  return row.id;
}

const names = async (query: string) => {
  const res = await server.json(`/api/images/${query}`);
  expect(res.status).toBe(200);
  return res.body.results.map((i: any) => i.name);
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
  await server.ctx.db.kysely.deleteFrom('folders').execute();
});

async function folder(name: string): Promise<number> {
  return (await server.json('/api/folders/', { method: 'POST', body: { name } })).body.id;
}

describe('GET /images/', () => {
  it('returns the list envelope with facets, newest first by default', async () => {
    const f = await folder('F');
    await seed({ name: 'old.jpg', created: '2026-01-01T00:00:00.000Z' });
    await seed({ name: 'new.jpg', created: '2026-03-01T00:00:00.000Z', folder: f });
    await seed({ name: 'mid.jpg', created: '2026-02-01T00:00:00.000Z' });
    const res = await server.json('/api/images/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, next: null, previous: null, facets: { all: 3, uncategorized: 2 } });
    expect(res.body.results.map((i: any) => i.name)).toEqual(['new.jpg', 'mid.jpg', 'old.jpg']);
    expect(Object.keys(res.body.results[0]).sort()).toEqual(
      [
        'created_time',
        'folderId',
        'format',
        'hasPPD',
        'has_labels',
        'height',
        'id',
        'image_url',
        'lastPrediction',
        'metadata',
        'name',
        'ppdValue',
        'reviewed_result',
        'sha256',
        'size',
        'thumbnail_url',
        'uploadDate',
        'width',
      ].sort(),
    );
    expect(await names('')).toEqual(await names('?'));
    const noSlash = await server.json('/api/images');
    expect(noSlash.body).toEqual(res.body);
  });

  it('filters by folder id and by none; facets stay over the whole library', async () => {
    const f = await folder('F');
    await seed({ name: 'in.jpg', folder: f });
    await seed({ name: 'out.jpg' });
    expect(await names(`?folder=${f}`)).toEqual(['in.jpg']);
    expect(await names('?folder=none')).toEqual(['out.jpg']);
    expect(await names('?folder=424242')).toEqual([]);
    const res = await server.json(`/api/images/?folder=${f}`);
    expect(res.body.facets).toEqual({ all: 2, uncategorized: 1 });
    expect(res.body.count).toBe(1);
  });

  it('searches names case-insensitively by substring, with % and _ matched literally', async () => {
    await seed({ name: 'Plot3_Rep2.JPG' });
    await seed({ name: 'plot30rep2.jpg' });
    await seed({ name: '100%_done.jpg' });
    await seed({ name: 'Ärger.jpg' });
    expect((await names('?search=plot3')).sort()).toEqual(['Plot3_Rep2.JPG', 'plot30rep2.jpg'].sort());
    expect(await names('?search=3_r')).toEqual(['Plot3_Rep2.JPG']);
    expect(await names('?search=%25')).toEqual(['100%_done.jpg']);
    expect(await names('?search=%25_')).toEqual(['100%_done.jpg']);
    expect(await names('?search=%5C')).toEqual([]);
    expect(await names('?search=%C3%A4rger')).toEqual(['Ärger.jpg']);
    expect((await names('?search=')).length).toBe(4);
  });

  it('orders by created_time, name, size and folder name, each ascending or descending', async () => {
    const zeta = await folder('zeta');
    const alpha = await folder('Alpha');
    await seed({ name: 'b.jpg', size: 300, folder: zeta });
    await seed({ name: 'a.jpg', size: 100, folder: alpha });
    await seed({ name: 'c.jpg', size: 200 });
    expect(await names('?ordering=created_time')).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);
    expect(await names('?ordering=-created_time')).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    expect(await names('?ordering=name')).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(await names('?ordering=-name')).toEqual(['c.jpg', 'b.jpg', 'a.jpg']);
    expect(await names('?ordering=size')).toEqual(['a.jpg', 'c.jpg', 'b.jpg']);
    expect(await names('?ordering=-size')).toEqual(['b.jpg', 'c.jpg', 'a.jpg']);
    // By folder name (case-insensitive); uncategorised first ascending.
    expect(await names('?ordering=folder')).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    expect(await names('?ordering=-folder')).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);
  });

  it('ordering=folder follows folder renames, moves and uploads into a folder', async () => {
    const m = await folder('middle');
    const img = await seed({ name: 'x.jpg', folder: m });
    await seed({ name: 'y.jpg' });
    const other = await folder('other');
    const moved = await seed({ name: 'z.jpg' });
    await server.json(`/api/folders/${other}/add_images/`, { method: 'POST', body: { image_ids: [moved] } });
    expect(await names('?ordering=folder')).toEqual(['y.jpg', 'x.jpg', 'z.jpg']);
    await server.json(`/api/folders/${m}/`, { method: 'PUT', body: { name: 'zzz last' } });
    expect(await names('?ordering=folder')).toEqual(['y.jpg', 'z.jpg', 'x.jpg']);
    await server.request(`/api/folders/${m}/?target=${other}`, { method: 'DELETE' });
    expect((await server.json(`/api/images/${img}/`)).body.folderId).toBe(other);
    expect(await names('?ordering=folder')).toEqual(['y.jpg', 'x.jpg', 'z.jpg']);
    const up = await server.json('/api/images/upload-files/', {
      method: 'POST',
      body: formWith([{ name: 'u.jpg', data: await makeJpeg({ seed: 77 }) }], { folder_id: String(other) }),
    });
    expect(up.status).toBe(201);
    expect(await names('?ordering=-folder')).toEqual(['u.jpg', 'z.jpg', 'x.jpg', 'y.jpg']);
  });

  it('pages through a search with many matches in the same order for every ordering', async () => {
    // Small pages over many matches take the index-walking plan; one big page sorts the matches.
    for (let i = 0; i < 30; i++)
      await seed({ name: i % 3 === 0 ? `other_${i}.jpg` : `leafspot_${i}.jpg`, size: (i * 7919) % 1000 });
    for (const ordering of ['-created_time', 'name', '-size', 'folder']) {
      const all = await names(`?search=leafspot&ordering=${ordering}&page_size=1000`);
      expect(all).toHaveLength(20);
      const paged: string[] = [];
      for (let page = 1; page <= 10; page++)
        paged.push(...(await names(`?search=leafspot&ordering=${ordering}&page_size=2&page=${page}`)));
      expect(paged).toEqual(all);
    }
    expect((await server.json('/api/images/?search=leafspot&page_size=2')).body.count).toBe(20);
    expect((await server.json('/api/images/?search=leafspot&format=png')).body.count).toBe(0);
  });

  it('searches with one- and two-character terms too', async () => {
    await seed({ name: 'ab.jpg' });
    await seed({ name: 'xy.png' });
    expect(await names('?search=B')).toEqual(['ab.jpg']);
    expect(await names('?search=y.')).toEqual(['xy.png']);
    expect(await names('?search=%22%22%22')).toEqual([]);
  });

  it('filters by format, UTC day and has_ppd', async () => {
    await seed({ name: 'p.png', format: 'png', created: '2026-11-21T23:59:59.999Z', ppd: 5.5 });
    await seed({ name: 'j.jpg', format: 'jpeg', created: '2026-11-22T00:00:00.000Z' });
    await seed({ name: 'k.jpg', format: 'jpeg', created: '2026-11-20T12:00:00.000Z', ppd: 0 });
    expect(await names('?format=png')).toEqual(['p.png']);
    expect(await names('?day=2026-11-21')).toEqual(['p.png']);
    expect(await names('?day=2026-11-22')).toEqual(['j.jpg']);
    expect(await names('?has_ppd=true')).toEqual(['p.png', 'k.jpg']);
    expect(await names('?has_ppd=false')).toEqual(['j.jpg']);
    expect(await names('?has_ppd=true&format=jpeg')).toEqual(['k.jpg']);
    const withPpd = (await server.json('/api/images/?has_ppd=true')).body.results[0];
    expect(withPpd).toMatchObject({ hasPPD: true, ppdValue: 5.5, lastPrediction: 'mild' });
  });

  it('pages with next/previous keeping the other parameters, clamps page_size to 1000, and a page past the end is empty', async () => {
    for (let i = 0; i < 5; i++) await seed({ name: `img${i}.jpg` });
    const p1 = await server.json('/api/images/?page_size=2&ordering=name&search=img');
    expect(p1.body.results.map((i: any) => i.name)).toEqual(['img0.jpg', 'img1.jpg']);
    expect(p1.body.count).toBe(5);
    const next = new URL(p1.body.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      page_size: '2',
      ordering: 'name',
      search: 'img',
      page: '2',
    });
    const p3 = await server.json('/api/images/?page_size=2&ordering=name&page=3');
    expect(p3.body.results.map((i: any) => i.name)).toEqual(['img4.jpg']);
    expect(p3.body.next).toBeNull();
    expect(new URL(p3.body.previous).searchParams.get('page')).toBe('2');
    for (const size of ['5000', '10000000000', '999999999999999999999']) {
      const big = await server.json(`/api/images/?page_size=${size}`);
      expect(big.status).toBe(200);
      expect(big.body.results).toHaveLength(5);
    }
    const beyond = await server.json('/api/images/?page=99');
    expect(beyond.status).toBe(200);
    expect(beyond.body.results).toEqual([]);
  });

  it.each([
    ['page=abc', 'page'],
    ['page=0', 'page'],
    ['page_size=0', 'page_size'],
    ['folder=abc', 'folder'],
    ['folder=-1', 'folder'],
    ['ordering=colour', 'ordering'],
    ['ordering=--name', 'ordering'],
    ['format=bmp', 'format'],
    ['day=2026-13-45', 'day'],
    ['day=2026-02-30', 'day'],
    ['day=yesterday', 'day'],
    ['has_ppd=maybe', 'has_ppd'],
  ])('answers 400 with fields.%s for a malformed value', async (query, field) => {
    const res = await server.json(`/api/images/?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(typeof res.body.detail).toBe('string');
    expect(Object.keys(res.body.fields)).toContain(field);
  });

  it('ignores unknown parameters', async () => {
    await seed({ name: 'a.jpg' });
    const res = await server.json('/api/images/?colour=blue&status=whatever&meta=x');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
  });

  it('reads a blank value as absent and a repeated parameter by its last value (docs/api.md)', async () => {
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) await seed({ name });
    const res = await server.json('/api/images/?page=&page_size=2&folder=%20&ordering=name&ordering=-name');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.results.map((i: any) => i.name)).toEqual(['c.jpg', 'b.jpg']);
  });
});

describe('GET /images/days/ and /images/types/', () => {
  it('counts per UTC day (newest first) and per format', async () => {
    await seed({ name: 'a', created: '2026-11-20T10:00:00.000Z', format: 'png' });
    await seed({ name: 'b', created: '2026-11-21T23:59:00.000Z' });
    await seed({ name: 'c', created: '2026-11-21T00:00:00.000Z' });
    const days = await server.json('/api/images/days/');
    expect(days.status).toBe(200);
    expect(days.body).toEqual([
      { day: '2026-11-21', count: 2 },
      { day: '2026-11-20', count: 1 },
    ]);
    const types = await server.json('/api/images/types');
    expect(types.body).toEqual([
      { format: 'jpeg', count: 2 },
      { format: 'png', count: 1 },
    ]);
  });
});

describe('counts kept by the database (facets, types, folder image counts)', () => {
  /** What a full count over the rows says, to compare with what the API answers. */
  async function countedFromRows() {
    const db = server.ctx.db.kysely;
    const rows = await db.selectFrom('images').select(['folder_id', 'format']).execute();
    const byFormat = new Map<string, number>();
    for (const r of rows) byFormat.set(r.format, (byFormat.get(r.format) ?? 0) + 1);
    return {
      all: rows.length,
      uncategorized: rows.filter((r) => r.folder_id === null).length,
      types: [...byFormat]
        .map(([format, count]) => ({ format, count }))
        .sort((a, b) => b.count - a.count || a.format.localeCompare(b.format)),
      inFolder: (id: number) => rows.filter((r) => r.folder_id === id).length,
    };
  }

  async function expectCountsTrue(folderIds: number[]) {
    const truth = await countedFromRows();
    const list = await server.json('/api/images/');
    expect(list.body.facets).toEqual({ all: truth.all, uncategorized: truth.uncategorized });
    expect(list.body.count).toBe(truth.all);
    expect((await server.json('/api/images/types/')).body).toEqual(truth.types);
    expect((await server.json('/api/images/?folder=none')).body.count).toBe(truth.uncategorized);
    for (const id of folderIds) {
      const f = await server.json(`/api/folders/${id}/`);
      if (f.status === 404) continue;
      expect(f.body.imageCount).toBe(truth.inFolder(id));
      expect((await server.json(`/api/images/?folder=${id}`)).body.count).toBe(truth.inFolder(id));
      expect((await server.json(`/api/images/?folder=${id}&format=png`)).body.count).toBe(
        (
          await server.ctx.db.kysely
            .selectFrom('images')
            .select('id')
            .where('folder_id', '=', id)
            .where('format', '=', 'png')
            .execute()
        ).length,
      );
    }
  }

  it('stay true through inserts, moves, a folder deleted with moving and with deleting, and image deletes', async () => {
    const a = await folder('Counts A');
    const b = await folder('Counts B');
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        await seed({
          name: `c${i}.jpg`,
          folder: i % 3 === 0 ? null : i % 3 === 1 ? a : b,
          format: i % 4 === 0 ? 'png' : 'jpeg',
        }),
      );
    await expectCountsTrue([a, b]);

    const add = await server.json(`/api/folders/${b}/add_images/`, {
      method: 'POST',
      body: { image_ids: ids.slice(0, 5) },
    });
    expect(add.status).toBe(200);
    await expectCountsTrue([a, b]);

    const toNone = await server.json(`/api/folders/none/add_images/`, {
      method: 'POST',
      body: { image_ids: ids.slice(5, 7) },
    });
    expect(toNone.status).toBe(200);
    await expectCountsTrue([a, b]);

    expect((await server.request(`/api/images/${ids[11]}/`, { method: 'DELETE' })).status).toBe(204);
    await expectCountsTrue([a, b]);

    const moved = await server.request(`/api/folders/${a}/?images=move&target=${b}`, { method: 'DELETE' });
    expect(moved.status).toBe(204);
    await expectCountsTrue([a, b]);

    const c = await folder('Counts C');
    await server.json(`/api/folders/${c}/add_images/`, { method: 'POST', body: { image_ids: ids.slice(0, 3) } });
    const deleted = await server.request(`/api/folders/${b}/?images=delete`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    await expectCountsTrue([a, b, c]);
    // Only the uncategorised images and folder C's three remain.
    expect((await server.json('/api/images/')).body.facets.all).toBe((await countedFromRows()).uncategorized + 3);
  });
});

describe('GET and DELETE /images/{id}/', () => {
  it('gets one image; 404 for an unknown id, 400 for a malformed one', async () => {
    const id = await seed({ name: 'one.jpg' });
    const res = await server.json(`/api/images/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'one.jpg', folderId: null, hasPPD: false });
    const missing = await server.json('/api/images/987654/');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    for (const bad of ['abc', '0', '1e3', '99999999999999999999']) {
      expect((await server.json(`/api/images/${bad}/`)).status).toBe(400);
    }
  });

  it('deletes the row, the original and the thumbnail (204), then 404', async () => {
    const up = await server.json('/api/images/upload-files/', {
      method: 'POST',
      body: formWith([{ name: 'x.jpg', data: await makeJpeg({ seed: 5 }) }]),
    });
    const img = up.body.uploaded[0];
    const keys = [img.image_url, img.thumbnail_url].map((u: string) => u.replace('/media/', ''));
    for (const k of keys) expect(await server.ctx.storage.exists(k)).toBe(true);
    const res = await server.request(`/api/images/${img.id}/`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    for (const k of keys) expect(await server.ctx.storage.exists(k)).toBe(false);
    const state = await storedState(server);
    expect(state.images).toBe(0);
    expect(state.tmp).toEqual([]);
    expect(state.blobs.filter((b) => b.includes(img.sha256))).toEqual([]);
    expect((await server.json(`/api/images/${img.id}/`)).status).toBe(404);
    expect((await server.json(`/api/images/${img.id}/`, { method: 'DELETE' })).status).toBe(404);
  });
});
