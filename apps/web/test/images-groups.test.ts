import SQLite from 'better-sqlite3';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, DESKTOP, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 15 item 3: 350 images over 9 days. Group headers count every image of their day (not the 200 loaded),
 * the quick-jump index knows all nine days, and a jump to the oldest day loads its page directly.
 */
let e2e: E2e;
let page: Page;
const DAYS = 9;
const perDay = (day: number) => (day === DAYS ? 30 : 40); // 8 x 40 + 30 = 350

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const files = Array.from({ length: 350 }, (_, i) => ({
    name: `plot_${i + 1}.png`,
    bytes: pngBytes(1000 + i, 16, 12),
  }));
  for (let i = 0; i < files.length; i += 100) {
    const up = await e2e.server.upload('/api/images/upload-files/', files.slice(i, i + 100), { check_duplicate: '0' });
    expect(up.status).toBe(201);
  }
  // Spread them over nine days (the upload time is now): day d holds perDay(d) images.
  const db = new SQLite(path.join(e2e.server.dataDir, 'cassavascope.db'));
  try {
    const ids = (db.prepare('select id from images order by id').all() as { id: number }[]).map((r) => r.id);
    const set = db.prepare('update images set created_at = ? where id = ?');
    let k = 0;
    for (let day = 1; day <= DAYS; day++) {
      for (let i = 0; i < perDay(day); i++) {
        set.run(
          `2026-11-${String(day).padStart(2, '0')}T08:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`,
          ids[k++],
        );
      }
    }
  } finally {
    db.close();
  }
  await e2e.open();
  await e2e.goto('images');
});

afterAll(async () => {
  await e2e?.close();
});

const header = (day: number) =>
  page.locator(`.image-group-header[data-group="2026-11-${String(day).padStart(2, '0')}"]`);

describe('group headers and the quick-jump index cover the whole library', () => {
  it('counts every image of a day in its header, and lists all nine days', async () => {
    // Newest first: days 9..5 (190 images) and 10 of day 4's 40 fill the first page of 200.
    await header(9).waitFor();
    await expect.poll(() => header(9).locator('.image-group-count').textContent(), POLL).toBe('30 images');
    expect(
      (await e2e.server.api('/api/images/?page_size=200')).body.results.filter((i: { created_time: string }) =>
        i.created_time.startsWith('2026-11-04'),
      ),
    ).toHaveLength(10);
    // Day 4 is only partly loaded; its header still counts all 40 (before: "10 images").
    await page.getByTestId('quick-jump').locator('button[data-key="2026-11-04"]').click();
    await header(4).waitFor();
    await expect.poll(() => header(4).locator('.image-group-count').textContent(), POLL).toBe('40 images');
    const keys = await page
      .getByTestId('quick-jump')
      .locator('button')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
    expect(keys).toEqual(Array.from({ length: DAYS }, (_, i) => `2026-11-${String(DAYS - i).padStart(2, '0')}`));
    expect(await page.getByTestId('quick-jump').locator('button:disabled').count()).toBe(0);
    await screenshot(page, 'images-groups-en-1440');
  });

  it('a jump to the oldest day loads its page at once and shows its header', async () => {
    const started = Date.now();
    await page.getByTestId('quick-jump').locator('button[data-key="2026-11-01"]').click();
    await page.waitForFunction(() => {
      const h = document.querySelector('.image-group-header[data-group="2026-11-01"]');
      const scroller = document.querySelector('.image-virtuoso');
      if (!h || !scroller) return false;
      const offset = h.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
      return offset > -4 && offset < scroller.clientHeight;
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(() => header(1).locator('.image-group-count').textContent(), POLL).toBe('40 images');
  });

  it('reads the same in Chinese and on a phone', async () => {
    await e2e.setLanguage('zh');
    await expect.poll(() => header(1).locator('.image-group-count').textContent(), POLL).toBe('40 张');
    await screenshot(page, 'images-groups-zh-1440');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'images-groups-zh-390', false);
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
  });
});
