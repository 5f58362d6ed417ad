import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSelectOption, DESKTOP, PHONE, POLL, screenshotNow } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 15 item 9: the Name sort reads as people sort: case-insensitive, numbers by value, Chinese by pinyin
 * after Latin names. The order is the library's, the same in the English and the Chinese UI (the server sorts and
 * pages; docs/api.md), so both languages are checked here.
 */
let e2e: E2e;
let page: Page;
// zhōng, ā, dì, bō: pinyin order a, bo, di, zhong (by code point 中 would come first).
const NAMES = [
  'plot.png',
  'T.png',
  'slice_10.png',
  'big.png',
  'slice_2.png',
  'Apple.png',
  '中心.png',
  '啊.png',
  '地块12.png',
  '波.png',
  '地块3.png',
];
const EXPECTED = [
  'Apple.png',
  'big.png',
  'plot.png',
  'slice_2.png',
  'slice_10.png',
  'T.png',
  '啊.png',
  '波.png',
  '地块3.png',
  '地块12.png',
  '中心.png',
];

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    NAMES.map((name, i) => ({ name, bytes: pngBytes(300 + i, 16, 12) })),
  );
  expect(up.status).toBe(201);
  await e2e.open();
  await e2e.goto('images');
});

afterAll(async () => {
  await e2e?.close();
});

/** Every card's name in screen order, scrolling the virtualised grid from top to bottom (only rows in view exist). */
async function shownNames(): Promise<string[]> {
  const seen: string[] = [];
  await page.locator('.image-virtuoso').evaluate((el) => el.scrollTo({ top: 0 }));
  for (let step = 0; step < 50; step++) {
    await page.waitForTimeout(80);
    const { names, atEnd } = await page.locator('.image-virtuoso').evaluate((el) => {
      const names = [...el.querySelectorAll('[data-testid="image-card"]')].map(
        (e) => e.getAttribute('data-image-name') ?? '',
      );
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      el.scrollBy({ top: el.clientHeight / 2 });
      return { names, atEnd };
    });
    for (const n of names) if (!seen.includes(n)) seen.push(n);
    if (atEnd) break;
  }
  return seen;
}
const indexKeys = () =>
  page
    .getByTestId('quick-jump')
    .locator('button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));

async function sortByName(label: string): Promise<void> {
  await chooseSelectOption(page, 'sort-select', label);
}

describe('the Name sort', () => {
  it('is case-insensitive, numeric and pinyin in the English UI', async () => {
    await expect.poll(() => shownNames().then((n) => n.length), POLL).toBe(NAMES.length);
    await sortByName('Name');
    await expect.poll(shownNames, POLL).toEqual(EXPECTED);
    await expect.poll(indexKeys, POLL).toEqual(['A', 'B', 'P', 'S', 'T', '啊', '波', '地', '中']);
    await screenshotNow(page, 'name-order-en-1440');
    await page.getByTestId('sort-direction').click();
    await expect.poll(shownNames, POLL).toEqual([...EXPECTED].reverse());
    await page.getByTestId('sort-direction').click();
  });

  it('is the same order in the Chinese UI, on a phone too', async () => {
    await e2e.setLanguage('zh');
    await sortByName('名称');
    await expect.poll(shownNames, POLL).toEqual(EXPECTED);
    await page.setViewportSize(PHONE);
    await expect.poll(shownNames, POLL).toEqual(EXPECTED);
    await screenshotNow(page, 'name-order-zh-390');
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
  });
});
