import SQLite from 'better-sqlite3';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, POLL, screenshotNow } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 15 item 3: a quick jump to a far group loads that group's page directly. 100 000 images over 9 days,
 * newest first: the oldest day starts at position 88 889 (page 445 of 200). Every row is laid out from the
 * server's groups with placeholders, so the jump costs one or two listing requests (it loaded all 444 pages
 * before it before).
 */
let e2e: E2e;
let page: Page;
const TOTAL = 100_000;
const DAYS = 9;
const dayOf = (i: number) => 1 + Math.floor((i * DAYS) / TOTAL);
const dayKey = (d: number) => `2026-11-${String(d).padStart(2, '0')}`;

/** Listing requests (`GET /api/images/?...`), not groups, days or types. */
const listings: string[] = [];
const countListing = (req: Request) => {
  const url = new URL(req.url());
  if (url.pathname === '/api/images/') listings.push(url.search);
};

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  // One real upload gives real stored files; the other rows share them (a listing test needs rows, not bytes).
  const up = await e2e.server.upload('/api/images/upload-files/', [{ name: 'seed.png', bytes: pngBytes(7, 32, 24) }]);
  expect(up.status).toBe(201);
  const db = new SQLite(path.join(e2e.server.dataDir, 'cassavascope.db'));
  try {
    const seed = db.prepare('select * from images').get() as Record<string, unknown>;
    db.prepare('delete from images').run();
    const insert = db.prepare(
      `insert into images (name, name_lower, name_sort, folder_id, folder_sort, size, format, width, height, sha256, blob_key, thumb_key, created_at)
       values (?, ?, ?, null, '', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < TOTAL; i++) {
        const d = dayOf(i);
        const name = `day${d}_${String(i).padStart(6, '0')}.png`;
        const seconds = i % 86_000;
        const time = `${dayKey(d)}T${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.000Z`;
        insert.run(
          name,
          name,
          name,
          seed.size,
          seed.format,
          seed.width,
          seed.height,
          seed.sha256,
          seed.blob_key,
          seed.thumb_key,
          time,
        );
      }
    })();
  } finally {
    db.close();
  }
  page.on('request', countListing);
  await e2e.open();
  await e2e.goto('images');
}, 300_000);

afterAll(async () => {
  page?.off('request', countListing);
  await e2e?.close();
});

const jumpTo = (d: number) =>
  page
    .getByTestId('quick-jump')
    .locator(`button[data-key="${dayKey(d)}"]`)
    .click();

/** The day's header is in the scroller's view, and cards of that day (not placeholders) are shown under it. */
async function dayShown(d: number): Promise<void> {
  await page.waitForFunction((key) => {
    const h = document.querySelector(`.image-group-header[data-group="${key}"]`);
    const scroller = document.querySelector('.image-virtuoso');
    if (!h || !scroller) return false;
    const offset = h.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    return offset > -4 && offset < scroller.clientHeight;
  }, dayKey(d));
  await expect
    .poll(() => page.locator(`[data-testid="image-card"][data-image-name^="day${d}_"]`).count(), POLL)
    .toBeGreaterThan(0);
}

describe('a quick jump to a far group at 100 000 images', () => {
  it('loads the oldest day of nine with one or two listing requests, and its header shows at once', async () => {
    await page.locator(`.image-group-header[data-group="${dayKey(9)}"]`).waitFor();
    await expect.poll(() => page.getByTestId('images-total').textContent(), POLL).toBe('100,000 images');
    // The index lists the loaded page's day at first, every day once the server's groups are in.
    const keys = () =>
      page
        .getByTestId('quick-jump')
        .locator('button')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
    await expect.poll(keys, POLL).toEqual(Array.from({ length: DAYS }, (_, i) => dayKey(DAYS - i)));
    const before = listings.length;
    const started = Date.now();
    await jumpTo(1);
    await dayShown(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    const count = await page.locator(`.image-group-header[data-group="${dayKey(1)}"] .image-group-count`).textContent();
    const inDay1 = Array.from({ length: TOTAL }, (_, i) => dayOf(i)).filter((d) => d === 1).length;
    expect(count).toBe(`${inDay1.toLocaleString('en-US')} images`);
    // The day's first page (and at most the one after it), never the pages before it.
    const jumped = listings.slice(before);
    expect(jumped.length).toBeGreaterThanOrEqual(1);
    expect(jumped.length).toBeLessThanOrEqual(2);
    for (const search of jumped) expect(Number(new URLSearchParams(search).get('page'))).toBeGreaterThanOrEqual(445);
    await screenshotNow(page, 'far-jump-en-1440');
  });

  it('rows not loaded yet are placeholders of the same size until their page arrives', async () => {
    // Straight to a day in the middle whose page was never loaded; its page answers slowly here, so its rows
    // are seen waiting as placeholders (the same size as cards), then filled.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const listing = (url: URL) => url.pathname === '/api/images/';
    await page.route(listing, async (route) => {
      await held;
      await route.continue();
    });
    const before = listings.length;
    try {
      await jumpTo(5);
      // Both measured in one step in the page, once both are laid out: the virtualised list may replace a row's
      // element between two separate look-ups (measuring one that was just removed gave null).
      const measure = () =>
        page.evaluate((key) => {
          const placeholder = document.querySelector('[data-testid="image-placeholder"]');
          const header = document.querySelector(`.image-group-header[data-group="${key}"]`);
          if (!placeholder || !header) return null;
          const p = placeholder.getBoundingClientRect();
          const h = header.getBoundingClientRect();
          return p.height > 0 && h.height > 0 ? { placeholder: p, header: h } : null;
        }, dayKey(5));
      let measured: Awaited<ReturnType<typeof measure>> = null;
      await expect
        .poll(async () => {
          measured = await measure();
          return measured;
        }, POLL)
        .not.toBeNull();
      const placeholder = measured?.placeholder;
      const header = measured?.header;
      await screenshotNow(page, 'far-jump-placeholders-en-1440');
      release();
      await dayShown(5);
      await expect.poll(() => page.getByTestId('image-placeholder').count(), POLL).toBe(0);
      const card = await page.locator('[data-testid="image-card"]').first().boundingBox();
      expect(placeholder?.height).toBeCloseTo(card?.height ?? 0, 0);
      expect(header?.height).toBeLessThan(card?.height ?? 0);
    } finally {
      release();
      await page.unroute(listing);
    }
    expect(listings.length - before).toBeLessThanOrEqual(2);
  });

  it('the list view jumps the same way (one row per image: 100 000 rows laid out)', async () => {
    await page.getByTestId('view-toggle').getByTitle('List view').click();
    await page.locator('[data-testid="image-browser"][data-view="list"]').waitFor();
    const before = listings.length;
    await jumpTo(3);
    await dayShown(3);
    expect(listings.length - before).toBeLessThanOrEqual(2);
    await screenshotNow(page, 'far-jump-list-en-1440');
    await page.getByTestId('view-toggle').getByTitle('Grid view').click();
    await page.locator('[data-testid="image-browser"][data-view="grid"]').waitFor();
  });

  it('the same jump in Chinese on a 390 px phone', async () => {
    await page.setViewportSize(PHONE);
    await e2e.setLanguage('zh');
    const before = listings.length;
    await jumpTo(2);
    await dayShown(2);
    expect(listings.length - before).toBeLessThanOrEqual(2);
    await expect
      .poll(
        () =>
          page
            .locator(`.image-group-header[data-group="${dayKey(2)}"] span`)
            .first()
            .textContent(),
        POLL,
      )
      .toContain('2026年11月2日');
    // Counts read with digit grouping in both languages.
    expect(
      await page.locator(`.image-group-header[data-group="${dayKey(2)}"] .image-group-count`).textContent(),
    ).toMatch(/^11,11\d 张$/);
    expect(await page.getByTestId('images-total').textContent()).toBe('共 100,000 张图像');
    await screenshotNow(page, 'far-jump-zh-390');
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
  });
});
