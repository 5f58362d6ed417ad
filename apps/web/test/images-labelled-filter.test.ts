import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, POLL, screenshot, chooseSelectOption } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Issue 23: the Images toolbar's labelled filter (`GET /images/?has_labels=`). Four photos, labels stored for one
 * through the real API: "Labelled only" shows that photo alone (with its labelled mark), "Not labelled yet" the
 * other three; the filter goes with the search, the field filter and the grouping, "Clear filters" lifts it, a
 * reload keeps it; the same in Chinese on a 390 px phone, where it sits in the options drawer.
 */
let e2e: E2e;
let page: Page;

const NAMES = ['TME419_1_7d_R1.png', 'TME419_2_7d_R1.png', 'TME7_1_7d_R1.png', 'TME7_2_7d_R1.png'];
const LABELLED = 'TME419_2_7d_R1.png';
const UNLABELLED = NAMES.filter((n) => n !== LABELLED);

const cards = () => page.locator('[data-testid="image-card"]');
/** The names of the photos on screen, sorted (the order is the sort's, not this test's). */
const namesOnScreen = async () =>
  (await cards().evaluateAll((els) => els.map((e) => e.getAttribute('data-image-name') ?? ''))).sort();
/** Screenshots of the screen as a user sees it on arrival (a pick may have scrolled the page). */
const top = () => page.evaluate(() => window.scrollTo(0, 0));
/** The dot on the phone's options button: a filter or a grouping is on. */
const optionsDot = () => page.getByTestId('images-options').locator('xpath=..').locator('.ant-badge-dot');
const shownFilter = () =>
  page.getByTestId('labelled-filter').locator('[data-testid^="labelled-filter-"]').textContent();

/** A grey label PNG at a quarter of the photo: the left half background, a healthy band and a lesion square. */
async function labelPng(width: number, height: number): Promise<Buffer> {
  const values = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      values[y * width + x] = x < width / 2 ? 1 : y > height / 3 && y < height / 2 ? 3 : 2;
  return sharp(values, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

const openDropdown = () => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

/**
 * Opens a select, clicks one of its options and waits until the select shows it and the list has closed (the next
 * list is the only one). As a person would, it opens the list and picks again if the pick did not take: in a clean
 * clone the list stayed open after a click on a Chinese phone's option drawer.
 */
async function pickOption(trigger: ReturnType<Page['locator']>, option: string) {
  await trigger.click();
  const label = ((await openDropdown().locator(option).first().textContent()) ?? '').trim();
  await expect
    .poll(async () => {
      const closed = (await openDropdown().count()) === 0;
      if (closed && ((await trigger.textContent()) ?? '').includes(label)) return true;
      if (closed) await trigger.click({ timeout: 2000 }).catch(() => undefined);
      await openDropdown()
        .locator(option)
        .first()
        .click({ timeout: 2000 })
        .catch(() => undefined);
      return false;
    }, POLL)
    .toBe(true);
}

/** Picks an option of the labelled filter (wherever the filter is: toolbar or drawer). */
const pickLabelled = (value: 'all' | 'labelled' | 'unlabelled', scope = page.locator('body')) =>
  pickOption(scope.getByTestId('labelled-filter'), `[data-testid="labelled-filter-${value}"]`);

const pick = (testId: string, option: string) => pickOption(page.getByTestId(testId), `[title="${option}"]`);

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    NAMES.map((name, i) => ({ name, bytes: pngBytes(70 + i, 96, 72) })),
  );
  expect(up.status).toBe(201);
  const ids = new Map((up.body.uploaded as { id: number; name: string }[]).map((i) => [i.name, i.id]));
  // Genotypes from the names: the field filter and the grouping are offered beside the labelled filter.
  const parsed = await e2e.server.api('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: [...ids.values()], apply: true },
  });
  expect(parsed.status).toBe(200);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await labelPng(24, 18))], { type: 'image/png' }), 'labels.png');
  const put = await fetch(`${e2e.server.url}/api/images/${ids.get(LABELLED)}/labels/`, { method: 'PUT', body: form });
  expect(put.status).toBe(200);
  expect(((await put.json()) as { counts: { lesion: number } }).counts.lesion).toBeGreaterThan(0);
  await e2e.open();
  await e2e.goto('images');
}, 120_000);

afterAll(async () => {
  await e2e?.close();
});

describe('Images: the labelled filter', () => {
  it('shows only the labelled photo, or only the others, in English at 1440 px', async () => {
    await expect.poll(namesOnScreen, POLL).toEqual([...NAMES].sort());
    expect(await shownFilter()).toBe('All photos');
    expect(await page.getByTestId('image-labelled').count()).toBe(1);

    await pickLabelled('labelled');
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);
    expect(await shownFilter()).toBe('Labelled only');
    expect(await page.getByTestId('images-total').textContent()).toBe('1 image');
    expect(await cards().first().getByTestId('image-labelled').count()).toBe(1);
    await top();
    await screenshot(page, 'images-labelled-only-en-1440', false);

    await pickLabelled('unlabelled');
    await expect.poll(namesOnScreen, POLL).toEqual(UNLABELLED.sort());
    expect(await page.getByTestId('image-labelled').count()).toBe(0);
    expect(await page.getByTestId('images-total').textContent()).toBe('3 images');
    await top();
    await screenshot(page, 'images-unlabelled-en-1440', false);
  });

  it('goes with the field filter, the search and the grouping; "Clear filters" lifts it', async () => {
    // Not labelled yet, by genotype: TME419 keeps one photo, TME7 both.
    await pick('group-by-select', 'Genotype');
    await expect
      .poll(
        () =>
          page
            .locator('.image-group-header')
            .evaluateAll((els) =>
              els.map((e) => [e.getAttribute('data-group'), e.querySelector('.image-group-count')?.textContent]),
            ),
        POLL,
      )
      .toEqual([
        ['TME7', '2 images'],
        ['TME419', '1 image'],
      ]);
    await top();
    await screenshot(page, 'images-unlabelled-grouped-en-1440', false);
    await pick('group-by-select', 'Upload date');

    await pick('metadata-filter-field', 'Genotype');
    await pick('metadata-filter-value', 'TME419 (2)');
    await expect.poll(namesOnScreen, POLL).toEqual(['TME419_1_7d_R1.png']);
    await pickLabelled('labelled');
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);

    // A search that leaves nothing: "no match" with a way back to every photo, not "upload photos".
    await page.locator('.images-search input').fill('TME7');
    const empty = page.getByTestId('images-empty');
    await expect.poll(() => empty.getAttribute('data-empty'), POLL).toBe('filter');
    expect(await empty.textContent()).toContain('No images match these filters');
    await top();
    await screenshot(page, 'images-labelled-no-match-en-1440', false);
    await empty.getByTestId('clear-filters').click();
    await expect.poll(namesOnScreen, POLL).toEqual([...NAMES].sort());
    expect(await shownFilter()).toBe('All photos');
    expect(await page.locator('.images-search input').inputValue()).toBe('');
  });

  it('keeps the filter across a reload', async () => {
    await pickLabelled('labelled');
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);
    // The app opens on Home after a reload; the Images screen comes back filtered as it was left.
    await page.reload();
    await page.locator('.app-header').waitFor();
    await e2e.goto('images');
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);
    expect(await shownFilter()).toBe('Labelled only');
  });

  it('reads in Chinese on a 390 px phone, in the options drawer', async () => {
    await page.setViewportSize(PHONE);
    await e2e.setLanguage('zh');
    await page.getByTestId('images-options').waitFor();
    // The toolbar stays one row; the filter is in the drawer and the options button shows it is on.
    expect(await page.getByTestId('labelled-filter').count()).toBe(0);
    expect(await optionsDot().count()).toBe(1);
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);
    await top();
    await screenshot(page, 'images-labelled-zh-390', false);

    await page.getByTestId('images-options').click();
    const drawer = page.locator('.images-options-drawer');
    await drawer.getByTestId('labelled-filter').waitFor();
    expect(await shownFilter()).toBe('仅已标注');
    await pickLabelled('unlabelled', drawer);
    await expect.poll(shownFilter, POLL).toBe('仅未标注');
    await expect.poll(namesOnScreen, POLL).toEqual(UNLABELLED.sort());
    await screenshot(page, 'images-labelled-drawer-zh-390', false);
    await drawer.getByTestId('labelled-filter').click();
    await openDropdown().locator('[data-testid="labelled-filter-all"]').waitFor();
    await screenshot(page, 'images-labelled-options-zh-390', false);
    // Picked as a person does: again if the pick did not take (under load a click can land on the list as it
    // re-renders).
    await chooseSelectOption(page, 'labelled-filter', '仅已标注');
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);
    await drawer.locator('.ant-drawer-close').click();
    await drawer.getByTestId('labelled-filter').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('images-total').textContent()).toBe('共 1 张图像');

    // Nothing matches: the empty state says so in Chinese and clears the filters.
    await page.locator('.images-search input').fill('TME7');
    const empty = page.getByTestId('images-empty');
    await expect.poll(() => empty.getAttribute('data-empty'), POLL).toBe('filter');
    expect(await empty.textContent()).toContain('没有符合这些筛选条件的图像');
    await top();
    await screenshot(page, 'images-labelled-no-match-zh-390', false);
    await empty.getByTestId('clear-filters').click();
    await expect.poll(namesOnScreen, POLL).toEqual([...NAMES].sort());
    // The dot zooms out.
    await expect.poll(() => optionsDot().count(), POLL).toBe(0);

    await page.setViewportSize(DESKTOP);
    await pickLabelled('labelled');
    await expect.poll(namesOnScreen, POLL).toEqual([LABELLED]);
    await top();
    await screenshot(page, 'images-labelled-only-zh-1440', false);
    await e2e.setLanguage('en');
  });
});
