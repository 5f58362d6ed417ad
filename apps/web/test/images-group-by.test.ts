import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 17: the Images grid grouped by a sample field. Nine photos, seven with a genotype: Group by → Genotype
 * gives one header per genotype with its count (names with numbers by value: TME7 before TME419), the photos
 * without one under "No value" last, each photo under its own genotype, the quick-jump index listing the values;
 * the choice survives a reload; the same in Chinese.
 */
let e2e: E2e;
let page: Page;

const GENOTYPES: Record<string, string | null> = {
  'root_a.png': 'TME419',
  'root_b.png': 'TME7',
  'root_c.png': 'TME419',
  'root_d.png': 'IBA30572',
  'root_e.png': null,
  'root_f.png': 'TME7',
  'root_g.png': 'TME419',
  'root_h.png': 'IBA30572',
  'root_i.png': null,
};
/** The expected groups, in order, with their photos in name order (the sort chosen below). */
const EXPECTED: [string, string[]][] = [
  ['IBA30572', ['root_d.png', 'root_h.png']],
  ['TME7', ['root_b.png', 'root_f.png']],
  ['TME419', ['root_a.png', 'root_c.png', 'root_g.png']],
  ['', ['root_e.png', 'root_i.png']],
];

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const names = Object.keys(GENOTYPES);
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    names.map((name, i) => ({ name, bytes: pngBytes(500 + i, 32, 24) })),
  );
  expect(up.status).toBe(201);
  for (const image of up.body.uploaded as { id: number; name: string }[]) {
    const genotype = GENOTYPES[image.name];
    // Every photo gets a replicate; only seven get a genotype.
    const metadata = genotype ? { genotype, rep: 1 } : { rep: 1 };
    const res = await e2e.server.api(`/api/images/${image.id}/`, { method: 'PATCH', body: { metadata } });
    expect(res.status).toBe(200);
  }
  await e2e.open();
  await e2e.goto('images');
});

afterAll(async () => {
  await e2e?.close();
});

/** The grid in reading order: each header's key, count and label with the names of the photos under it. */
async function groupsOnScreen() {
  return page.locator('.image-group-header, [data-testid="image-card"]').evaluateAll((els) => {
    const out: { key: string; label: string; count: string; names: string[] }[] = [];
    for (const el of els) {
      if (el.classList.contains('image-group-header')) {
        out.push({
          key: el.getAttribute('data-group') ?? '?',
          label: el.firstElementChild?.textContent ?? '',
          count: el.querySelector('.image-group-count')?.textContent ?? '',
          names: [],
        });
      } else out[out.length - 1]?.names.push(el.getAttribute('data-image-name') ?? '');
    }
    return out;
  });
}

async function pick(testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) [title="${option}"]`).click();
}

describe('Images grouped by a sample field', () => {
  it('shows one header per genotype with its count, the photos under their own, "No value" last', async () => {
    await pick('sort-select', 'Name');
    await pick('group-by-select', 'Genotype');
    // The date grouping (year/month/day) is for the upload-date groups only.
    await expect.poll(() => page.getByTestId('date-grouping').count(), POLL).toBe(0);
    await expect
      .poll(async () => (await groupsOnScreen()).map((g) => [g.key, g.names]), POLL)
      .toEqual(EXPECTED.map(([key, names]) => [key, names]));
    const groups = await groupsOnScreen();
    expect(groups.map((g) => g.label)).toEqual([
      'Genotype: IBA30572',
      'Genotype: TME7',
      'Genotype: TME419',
      'Genotype: No value',
    ]);
    expect(groups.map((g) => g.count)).toEqual(['2 images', '2 images', '3 images', '2 images']);
    const index = page.getByTestId('quick-jump').locator('button');
    expect(await index.allTextContents()).toEqual(['IBA30572', 'TME7', 'TME419', 'No value']);
    expect(await page.getByTestId('quick-jump').locator('button:disabled').count()).toBe(0);
    await screenshot(page, 'images-group-by-en-1440');
    await page.setViewportSize(PHONE);
    await expect.poll(async () => (await groupsOnScreen())[0]?.label, POLL).toBe('Genotype: IBA30572');
    await screenshot(page, 'images-group-by-en-390', false);
    await page.setViewportSize(DESKTOP);
  });

  it('keeps the grouping across a reload; another field regroups', async () => {
    // The app opens on Home after a reload; the Images screen then comes back grouped as it was left.
    await page.reload();
    await page.locator('.app-header').waitFor();
    await e2e.goto('images');
    await expect
      .poll(async () => (await groupsOnScreen()).map((g) => [g.key, g.count]), POLL)
      .toEqual([
        ['IBA30572', '2 images'],
        ['TME7', '2 images'],
        ['TME419', '3 images'],
        ['', '2 images'],
      ]);
    expect(await page.getByTestId('group-by-select').textContent()).toContain('Genotype');
    // By replicate: every photo has rep 1, one group of nine.
    await pick('group-by-select', 'Replicate');
    await expect
      .poll(async () => (await groupsOnScreen()).map((g) => [g.label, g.count]), POLL)
      .toEqual([['Replicate: 1', '9 images']]);
    await pick('group-by-select', 'Genotype');
    await expect.poll(async () => (await groupsOnScreen()).length, POLL).toBe(4);
  });

  it('reads the same in Chinese, the sort ordering each group', async () => {
    await e2e.setLanguage('zh');
    // The reload kept the grouping, not the sort: newest first (the reverse of the upload) inside each group.
    const newestFirst = (i: number) => [...EXPECTED[i]![1]].reverse();
    await expect
      .poll(async () => (await groupsOnScreen()).map((g) => [g.label, g.count, g.names]), POLL)
      .toEqual([
        ['基因型：IBA30572', '2 张', newestFirst(0)],
        ['基因型：TME7', '2 张', newestFirst(1)],
        ['基因型：TME419', '3 张', newestFirst(2)],
        ['基因型：未填写', '2 张', newestFirst(3)],
      ]);
    await pick('sort-select', '名称');
    await expect
      .poll(async () => (await groupsOnScreen()).map((g) => g.names), POLL)
      .toEqual(EXPECTED.map(([, names]) => names));
    expect(await page.getByTestId('group-by-select').textContent()).toContain('基因型');
    await screenshot(page, 'images-group-by-zh-1440');
    await page.setViewportSize(PHONE);
    await expect.poll(async () => (await groupsOnScreen())[0]?.label, POLL).toBe('基因型：IBA30572');
    await screenshot(page, 'images-group-by-zh-390', false);
    await page.setViewportSize(DESKTOP);
    // Back to the sort's own groups: first letters for the name order.
    await pick('group-by-select', '首字母');
    await expect
      .poll(async () => (await groupsOnScreen()).map((g) => [g.label, g.count]), POLL)
      .toEqual([['R', '9 张']]);
    await e2e.setLanguage('en');
  });
});
