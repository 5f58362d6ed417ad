import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertImageRow } from './helpers/image-rows.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * `GET /images/groups/` (an addition, docs/api.md): the Images screen's group headers and quick-jump index over
 * the whole filtered library, not just the pages loaded (issue 15 item 3).
 */
let server: TestServer;
const seed = (name: string, created: string, size = 1000, folderId: number | null = null) =>
  insertImageRow(server, { name, created, size, folderId });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.ctx.db.kysely.deleteFrom('images').execute();
});

describe('GET /images/groups/', () => {
  it('gives every day of the library with its count and first position, beyond the first page', async () => {
    // 350 images over 9 days: more than one 200-image page.
    let n = 0;
    for (let day = 1; day <= 9; day++) {
      const perDay = day === 9 ? 30 : 40;
      for (let i = 0; i < perDay; i++) {
        n += 1;
        await seed(`img_${n}.jpg`, `2026-11-${String(day).padStart(2, '0')}T10:${String(i).padStart(2, '0')}:00.000Z`);
      }
    }
    const res = await server.json('/api/images/groups/?ordering=-created_time&grouping=day');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(350);
    expect(res.body.groups).toHaveLength(9);
    expect(res.body.groups[0]).toEqual({ key: '2026-11-09', count: 30, start: 0 });
    expect(res.body.groups[1]).toEqual({ key: '2026-11-08', count: 40, start: 30 });
    expect(res.body.groups[8]).toEqual({ key: '2026-11-01', count: 40, start: 310 });
    // The positions are those of the listing: the group's first image is at that offset.
    const page2 = await server.json('/api/images/?ordering=-created_time&page=2&page_size=200');
    expect(page2.body.results[310 - 200].created_time.slice(0, 10)).toBe('2026-11-01');
    // By month and year: one group.
    expect((await server.json('/api/images/groups/?grouping=month')).body.groups).toEqual([
      { key: '2026-11', count: 350, start: 0 },
    ]);
    expect((await server.json('/api/images/groups/?grouping=year')).body.groups).toEqual([
      { key: '2026', count: 350, start: 0 },
    ]);
    // The listing's filters apply.
    expect((await server.json('/api/images/groups/?search=img_35')).body).toEqual({
      count: 2,
      groups: [
        { key: '2026-11-09', count: 1, start: 0 },
        { key: '2026-11-01', count: 1, start: 1 },
      ],
    });
  });

  it('groups by size bucket, folder and first letter in the listing order; bad grouping is a 400', async () => {
    await seed('b.jpg', '2026-11-01T00:00:00.000Z', 500);
    await seed('a.jpg', '2026-11-01T00:00:01.000Z', 2_000_000);
    await seed('c.jpg', '2026-11-01T00:00:02.000Z', 6_000_000);
    await seed('9.jpg', '2026-11-01T00:00:03.000Z', 700);
    expect((await server.json('/api/images/groups/?ordering=-size')).body.groups).toEqual([
      { key: '>5MB', count: 1, start: 0 },
      { key: '1-5MB', count: 1, start: 1 },
      { key: '<1MB', count: 2, start: 2 },
    ]);
    expect(
      (await server.json('/api/images/groups/?ordering=name')).body.groups.map((g: { key: string }) => g.key),
    ).toEqual(['9', 'A', 'B', 'C']);
    expect((await server.json('/api/images/groups/?ordering=folder')).body.groups).toEqual([
      { key: 'none', count: 4, start: 0 },
    ]);
    const bad = await server.json('/api/images/groups/?grouping=week');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('grouping');
    expect((await server.json('/api/images/groups/?ordering=colour')).status).toBe(400);
  });
});
