import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertImageRow } from './helpers/image-rows.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * `group_by=FIELD` on `GET /images/` and `GET /images/groups/` (an addition, docs/api.md; issue 17 "Images group
 * by any field"): one group per value, numbers in numeric order, text in the library's name order, the images
 * without the field last; the listing goes group by group so its pages agree with the groups. Runs on SQLite and,
 * in the full suite, on PostgreSQL.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
});

/** Seeds image rows (no files) and sets each one's fields; returns the ids by name. */
async function seed(images: { name: string; size?: number; fields?: Record<string, string | number> }[]) {
  for (const { name, size } of images) await insertImageRow(server, { name, size });
  const list = await server.json('/api/images/?page_size=1000');
  const ids: Record<string, number> = Object.fromEntries(list.body.results.map((i: any) => [i.name, i.id]));
  for (const { name, fields } of images) {
    if (!fields) continue;
    const res = await server.json(`/api/images/${ids[name]}/`, { method: 'PATCH', body: { metadata: fields } });
    expect(res.status).toBe(200);
  }
  return ids;
}

const names = (body: any): string[] => body.results.map((i: any) => i.name);

describe('group_by=FIELD', () => {
  it('groups text values in name order with the images without the field last; the listing agrees', async () => {
    await seed([
      { name: 'a1.jpg', size: 300, fields: { genotype: 'TME419' } },
      { name: 'a2.jpg', size: 100, fields: { genotype: 'TME419' } },
      { name: 'b1.jpg', size: 200, fields: { genotype: 'IBA30572' } },
      { name: 'c1.jpg', size: 500, fields: { genotype: 'TME7' } },
      { name: 'c2.jpg', size: 400, fields: { genotype: 'tme7' } },
      { name: 'd1.jpg', size: 600, fields: { rep: 1 } },
      { name: 'd2.jpg', size: 700 },
    ]);
    const groups = await server.json('/api/images/groups/?group_by=genotype&ordering=-size');
    expect(groups.status).toBe(200);
    // TME7 before TME419 (numbers in names by value); "TME7" and "tme7" are two groups side by side.
    expect(groups.body).toEqual({
      count: 7,
      groups: [
        { key: 'IBA30572', value: 'IBA30572', count: 1, start: 0 },
        { key: 'TME7', value: 'TME7', count: 1, start: 1 },
        { key: 'tme7', value: 'tme7', count: 1, start: 2 },
        { key: 'TME419', value: 'TME419', count: 2, start: 3 },
        { key: '', value: null, count: 2, start: 5 },
      ],
    });
    // The listing: group by group, the ordering (largest first) inside each group.
    const list = await server.json('/api/images/?group_by=genotype&ordering=-size');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(7);
    expect(names(list.body)).toEqual(['b1.jpg', 'c1.jpg', 'c2.jpg', 'a1.jpg', 'a2.jpg', 'd2.jpg', 'd1.jpg']);
    expect(names((await server.json('/api/images/?group_by=genotype&ordering=size')).body)).toEqual([
      'b1.jpg',
      'c1.jpg',
      'c2.jpg',
      'a2.jpg',
      'a1.jpg',
      'd1.jpg',
      'd2.jpg',
    ]);
    // Pages cut through groups and still agree with them.
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const res = await server.json(`/api/images/?group_by=genotype&ordering=-size&page=${page}&page_size=3`);
      pages.push(...names(res.body));
    }
    expect(pages).toEqual(['b1.jpg', 'c1.jpg', 'c2.jpg', 'a1.jpg', 'a2.jpg', 'd2.jpg', 'd1.jpg']);
    expect((await server.json('/api/images/?group_by=genotype&page=4&page_size=3')).body.results).toEqual([]);
  });

  it('groups numbers in numeric order; filters narrow the groups and the listing alike', async () => {
    const folder = (await server.json('/api/folders/', { method: 'POST', body: { name: 'Trial' } })).body.id;
    await seed([
      { name: 'x10.jpg', fields: { dah: 10, genotype: 'TME419' } },
      { name: 'x2.jpg', fields: { dah: 2, genotype: 'TME419' } },
      { name: 'x2b.jpg', fields: { dah: 2, genotype: 'TME7' } },
      { name: 'x0.jpg', fields: { dah: 0.5, genotype: 'TME419' } },
      { name: 'none.jpg' },
    ]);
    expect((await server.json('/api/images/groups/?group_by=dah&ordering=name')).body.groups).toEqual([
      { key: '0.5', value: 0.5, count: 1, start: 0 },
      { key: '2', value: 2, count: 2, start: 1 },
      { key: '10', value: 10, count: 1, start: 3 },
      { key: '', value: null, count: 1, start: 4 },
    ]);
    expect(names((await server.json('/api/images/?group_by=dah&ordering=name')).body)).toEqual([
      'x0.jpg',
      'x2.jpg',
      'x2b.jpg',
      'x10.jpg',
      'none.jpg',
    ]);
    // meta.genotype=TME419: only its images are grouped, and there is no "no value" group left.
    const filtered = await server.json('/api/images/groups/?group_by=dah&meta.genotype=TME419');
    expect(filtered.body).toEqual({
      count: 3,
      groups: [
        { key: '0.5', value: 0.5, count: 1, start: 0 },
        { key: '2', value: 2, count: 1, start: 1 },
        { key: '10', value: 10, count: 1, start: 2 },
      ],
    });
    expect(names((await server.json('/api/images/?group_by=dah&meta.genotype=TME419&ordering=name')).body)).toEqual([
      'x0.jpg',
      'x2.jpg',
      'x10.jpg',
    ]);
    // A search, and a folder's own listing, group the same way.
    expect((await server.json('/api/images/groups/?group_by=dah&search=x2')).body.groups).toEqual([
      { key: '2', value: 2, count: 2, start: 0 },
    ]);
    const ids = (await server.json('/api/images/?page_size=100')).body.results
      .filter((i: any) => i.name === 'x10.jpg' || i.name === 'none.jpg')
      .map((i: any) => i.id);
    expect(
      (await server.json(`/api/folders/${folder}/add_images/`, { method: 'POST', body: { image_ids: ids } })).status,
    ).toBe(200);
    expect(names((await server.json(`/api/folders/${folder}/images/?group_by=dah`)).body)).toEqual([
      'x10.jpg',
      'none.jpg',
    ]);
    // A field no image has: one "no value" group with every image.
    expect((await server.json('/api/images/groups/?group_by=plot')).body.groups).toEqual([
      { key: '', value: null, count: 5, start: 0 },
    ]);
  });

  it('orders Chinese text by pinyin and the numbers in it by value, as names are ordered', async () => {
    await seed([
      { name: 'm10.jpg', fields: { genotype: '木薯10' } },
      { name: 'm2.jpg', fields: { genotype: '木薯2' } },
      { name: 'b1.jpg', fields: { genotype: '白薯1' } },
      { name: 'f.jpg', fields: { genotype: 'Ｆ（对照）' } },
    ]);
    const groups = (await server.json('/api/images/groups/?group_by=genotype')).body.groups;
    // Latin letters (fullwidth ones too, as the name order has them) before Han characters; bai before mu.
    expect(groups.map((g: any) => g.key)).toEqual(['Ｆ（对照）', '白薯1', '木薯2', '木薯10']);
    expect(names((await server.json('/api/images/?group_by=genotype')).body)).toEqual([
      'f.jpg',
      'b1.jpg',
      'm2.jpg',
      'm10.jpg',
    ]);
  });

  it('a page spanning many groups keeps each group together and in order', async () => {
    const images = Array.from({ length: 30 }, (_, i) => ({
      name: `img_${String(i).padStart(2, '0')}.jpg`,
      fields: i % 3 === 0 ? undefined : { plot: `P${i % 7}` },
    }));
    await seed(images);
    const groups = (await server.json('/api/images/groups/?group_by=plot&ordering=name')).body.groups;
    expect(groups.map((g: any) => g.key)).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6', '']);
    const all: any[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await server.json(`/api/images/?group_by=plot&ordering=name&page=${page}&page_size=8`);
      all.push(...res.body.results);
    }
    expect(all).toHaveLength(30);
    // Each image sits inside its group's range, and names ascend inside each group.
    for (const g of groups) {
      const slice = all.slice(g.start, g.start + g.count);
      expect(slice.every((i) => (i.metadata.plot ?? '') === g.key)).toBe(true);
      const sorted = slice.map((i) => i.name);
      expect(sorted).toEqual([...sorted].sort());
    }
  });

  it('a bad field name is a 400 naming group_by and lists nothing', async () => {
    for (const path of ['/api/images/', '/api/images/groups/']) {
      for (const bad of ['geno type', 'a-b', 'x'.repeat(200), 'génotype;drop']) {
        const res = await server.json(`${path}?group_by=${encodeURIComponent(bad)}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid');
        expect(res.body.detail).toContain('group_by');
        expect(res.body.fields).toHaveProperty('group_by');
      }
      // Empty counts as absent, as for the other filters.
      expect((await server.json(`${path}?group_by=`)).status).toBe(200);
    }
  });
});
