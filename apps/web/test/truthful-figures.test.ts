import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { chooseSelectOption, DESKTOP, escapeDialog, PHONE, POLL, screenshot, screenshotOf } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * Issue 25 items 1, 3 and 4 in a real browser against the real server and engine, in English and Chinese: two
 * tasks score some of the same photos, and every figure on screen counts a photo once and says which value it is.
 * - Samples -> By group: each photo once, by its newest result (the screen says so), or by the tasks picked (and
 *   says which); a group of 2 photos has "n < 3: no interval"; the drawer's count is the photos it lists.
 * - Results detail: a photo of several specimens says how many are in each band.
 * - Images: a card shows the reviewed value, marked, and says when a later run nobody reviewed reads otherwise.
 * - Home: this library's real figures.
 */
let e2e: E2e;
let page: Page;
const tasks = { first: 0, second: 0 };
const imageIds: Record<string, number> = {};
const NAMES = ['TME419_1.jpg', 'TME419_2.jpg', 'TME419_3.jpg', 'TME693_1.jpg', 'TME693_2.jpg'];

interface Result {
  id: number;
  imageName: string;
  task_id: number;
  ppd_value: number | null;
  sub_ppd_values: number[];
  specimens: { index: number }[];
}
interface Group {
  key: { genotype: string | null };
  images: number;
  mean: number;
  ci95: [number, number] | null;
}

const shots: string[] = [];
async function shot(name: string, fullPage = true): Promise<void> {
  shots.push(await screenshot(page, `issue25-${name}`, fullPage));
}

async function runTask(name: string, ids: number[], params: Record<string, unknown> = {}): Promise<number> {
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name, image_ids: ids, ...params },
  });
  expect(task.status).toBe(201);
  // Before the tests (no expect.poll here): the task ends while the server scores it.
  const deadline = Date.now() + 120_000;
  while ((await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error(`task ${name} did not end`);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect((await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status).toBe('completed');
  return task.body.id;
}

const resultsOf = async (query: string): Promise<Result[]> =>
  (await e2e.server.api(`/api/predictions/?page_size=100${query}`)).body.results;

async function chooseTask(name: string): Promise<void> {
  await chooseSelectOption(page, 'groups-task', name);
  // The task list stays open for more picks: close it.
  await page.keyboard.press('Escape');
}

const groupRow = (genotype: string) => page.getByTestId('groups-table').locator('tr').filter({ hasText: genotype });
const cellTexts = (genotype: string) => groupRow(genotype).locator('td').allTextContents();

/** The headline the detail should give for these specimen values (bands at 4 and 7), in each language. */
function headline(values: number[], lang: 'en' | 'zh'): string {
  const count = (lo: number, hi: number) => values.filter((v) => v >= lo && v < hi).length;
  const bands: [string, string, number][] = [
    ['severe', '重度', count(7, Infinity)],
    ['mild', '轻度', count(4, 7)],
    ['healthy', '健康', count(-Infinity, 4)],
  ];
  const parts = bands.filter(([, , n]) => n > 0);
  return lang === 'en'
    ? `${values.length} specimens: ${parts.map(([en, , n]) => `${n} ${en}`).join(', ')}`
    : `${values.length} 个样本：${parts.map(([, zh, n]) => `${zh} ${n} 个`).join('，')}`;
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const files = await Promise.all(
    NAMES.map(async (name, i) => ({
      name,
      bytes: await makeSpecimenJpeg({ width: 480, height: 320, seed: 4 + i * 9 }),
    })),
  );
  const up = await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' });
  expect(up.status).toBe(201);
  for (const u of up.body.uploaded as { id: number; name: string }[]) imageIds[u.name] = u.id;
  const parse = await e2e.server.api('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}', image_ids: Object.values(imageIds), apply: true },
  });
  expect(parse.body.matched).toHaveLength(5);
  tasks.first = await runTask('First run', Object.values(imageIds));
  // The second run scores two TME419 photos and one TME693 photo again, at another threshold (other values).
  tasks.second = await runTask(
    'Second run',
    ['TME419_1.jpg', 'TME419_2.jpg', 'TME693_1.jpg'].map((n) => imageIds[n]!),
    { threshold: 0.2 },
  );
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
  console.log(`issue 25 screenshots:\n${shots.join('\n')}`);
});

describe('group statistics count a photo once', () => {
  it('Samples -> By group: one result per photo by default, and says so; no interval from 2 photos', async () => {
    const groups = (await e2e.server.api('/api/predictions/groups/?by=genotype')).body as Group[];
    expect(groups.map((g) => [g.key.genotype, g.images])).toEqual([
      ['TME419', 3],
      ['TME693', 2],
    ]);
    await e2e.goto('samples');
    await page.getByTestId('tab-groups').click();
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('One result per photo: its newest (with the reviewed values where it was reviewed).');
    // Genotype, images (n), specimens, mean, SD, interval, bands: TME419 has 3 photos (5 results), TME693 2.
    await expect.poll(async () => (await cellTexts('TME419'))[1], POLL).toBe('3');
    await expect.poll(async () => (await cellTexts('TME419'))[3], POLL).toBe(groups[0]!.mean.toFixed(2));
    const ci = groups[0]!.ci95!;
    await expect
      .poll(async () => (await cellTexts('TME419'))[5], POLL)
      .toBe(`${ci[0].toFixed(2)} – ${ci[1].toFixed(2)}`);
    await expect.poll(async () => (await cellTexts('TME693'))[1], POLL).toBe('2');
    await expect.poll(async () => (await cellTexts('TME693'))[5], POLL).toBe('n < 3: no interval');
    await shot('groups-en-1440');

    // The drawer says how many photos it lists, and lists exactly those: each photo once.
    await groupRow('TME419').click();
    const drawer = page.getByTestId('group-photos');
    await expect
      .poll(() => drawer.getByTestId('group-photos-summary').textContent(), POLL)
      .toBe(`3 scored photos, mean PPD ${groups[0]!.mean.toFixed(2)}:`);
    await expect
      .poll(async () => (await drawer.locator('.group-photo-name').allTextContents()).sort(), POLL)
      .toEqual(['TME419_1.jpg', 'TME419_2.jpg', 'TME419_3.jpg']);
    // Each photo's value is its newest result's: the second run's for TME419_1.
    const newest = (await resultsOf(`&task_id=${tasks.second}&search=TME419_1`))[0]!;
    await expect
      .poll(
        () => drawer.locator('figure').filter({ hasText: 'TME419_1.jpg' }).getByTestId('group-photo-ppd').textContent(),
        POLL,
      )
      .toBe(`PPD ${newest.ppd_value!.toFixed(2)}`);
    await shot('groups-drawer-en-1440', false);
    await escapeDialog(page, drawer);
  });

  it('picked tasks: the screen names them, and each photo counts once among them', async () => {
    await chooseTask('Second run');
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('Task: Second run. One result per photo.');
    await expect.poll(async () => (await cellTexts('TME419'))[1], POLL).toBe('2');
    await expect.poll(async () => (await cellTexts('TME693'))[1], POLL).toBe('1');
    await chooseTask('First run');
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('Tasks: Second run, First run. One result per photo: its newest in these tasks.');
    await expect.poll(async () => (await cellTexts('TME419'))[1], POLL).toBe('3');
    await shot('groups-tasks-en-1440');
    await page.getByTestId('groups-task').hover();
    await page.getByTestId('groups-task').locator('.ant-select-clear').click();
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('One result per photo: its newest (with the reviewed values where it was reviewed).');
  });

  it("Results -> By group: every task's photos once, or the task picked in the sidebar, and says which", async () => {
    await e2e.goto('results');
    await page.getByTestId('results-all-tasks').click();
    await page.getByTestId('results-view-groups').click();
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('One result per photo: its newest (with the reviewed values where it was reviewed).');
    await expect.poll(async () => (await cellTexts('TME419'))[1], POLL).toBe('3');
    await expect.poll(async () => (await cellTexts('TME693'))[5], POLL).toBe('n < 3: no interval');
    await shot('results-groups-en-1440');
    await page.getByTestId('results-task').filter({ hasText: 'Second run' }).click();
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('Task: Second run. One result per photo.');
    await expect.poll(async () => (await cellTexts('TME419'))[1], POLL).toBe('2');
    await page.getByTestId('results-all-tasks').click();
    await expect.poll(async () => (await cellTexts('TME419'))[1], POLL).toBe('3');
    // Back to the cards (the view is kept across visits).
    await page.getByTestId('results-view').locator('.ant-segmented-item').first().click();
    await page.locator('[data-testid="result-card"]').first().waitFor();
    await e2e.goto('samples');
    await page.getByTestId('tab-groups').click();
  });

  it('in Chinese, and on a phone', async () => {
    await e2e.setLanguage('zh');
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('每张照片计一个结果：其最新结果（已复核的用复核后的值）。');
    await expect.poll(async () => (await cellTexts('TME693'))[5], POLL).toBe('n < 3：不计算区间');
    await shot('groups-zh-1440');
    await groupRow('TME419').click();
    await expect
      .poll(() => page.getByTestId('group-photos-summary').textContent(), POLL)
      .toMatch(/^3 张已评分照片，平均 PPD \d+\.\d\d：$/);
    await shot('groups-drawer-zh-1440', false);
    await escapeDialog(page, page.getByTestId('group-photos'));
    await chooseTask('Second run');
    await expect
      .poll(() => page.getByTestId('groups-basis').textContent(), POLL)
      .toBe('任务：Second run。每张照片计一个结果。');
    await page.getByTestId('groups-task').hover();
    await page.getByTestId('groups-task').locator('.ant-select-clear').click();

    await page.setViewportSize(PHONE);
    // On a phone the interval sits under the mean.
    await expect
      .poll(() => groupRow('TME693').getByTestId('group-mean-ci').textContent(), POLL)
      .toBe('n < 3：不计算区间');
    await shot('groups-zh-390');
    await e2e.setLanguage('en');
    await expect
      .poll(() => groupRow('TME693').getByTestId('group-mean-ci').textContent(), POLL)
      .toBe('n < 3: no interval');
    await shot('groups-en-390');
    await page.setViewportSize(DESKTOP);
  });
});

describe('headlines and cards that agree with the numbers', () => {
  it('the result detail says how many specimens are in each band', async () => {
    // The issue's tray: slices at 4.34 and 4.00 beside a healthy one (a reviewer's values), mean 3.45 (healthy).
    const scored = (await resultsOf(`&task_id=${tasks.first}&search=TME693_2`))[0]!;
    expect(scored.specimens).toHaveLength(3);
    for (const [i, ppd] of [4.34, 4.0, 2.0].entries())
      await e2e.server.api(`/api/predictions/${scored.id}/specimens/${scored.specimens[i]!.index}/`, {
        method: 'PATCH',
        body: { ppd },
      });
    const result = (await resultsOf(`&task_id=${tasks.first}&search=TME693_2`))[0]!;
    expect(result.ppd_value).toBe(3.45);
    expect(headline(result.sub_ppd_values, 'en')).toBe('3 specimens: 2 mild, 1 healthy');
    const detail = page.getByTestId('result-detail');
    const open = async () => {
      await page.locator(`[data-testid="result-card"][data-result-id="${result.id}"]`).click();
      await detail.waitFor();
      await detail.getByTestId('health-assessment').scrollIntoViewIfNeeded();
    };
    const close = async () => {
      await escapeDialog(page, detail);
    };
    await e2e.goto('results');
    await open();
    await expect
      .poll(() => detail.getByTestId('health-title').textContent(), POLL)
      .toBe('3 specimens: 2 mild, 1 healthy');
    await expect
      .poll(() => detail.getByTestId('health-description').textContent(), POLL)
      .toBe("The photo's PPD, 3.45, is the mean of its 3 specimens: healthy range (PPD < 4).");
    // Drawn in the worst band among its specimens, not as a healthy photo.
    await expect.poll(() => detail.getByTestId('health-assessment').getAttribute('class'), POLL).toContain('band-mild');
    await shot('detail-en-1440', false);
    await close();
    await e2e.setLanguage('zh');
    await open();
    await expect
      .poll(() => detail.getByTestId('health-title').textContent(), POLL)
      .toBe('3 个样本：轻度 2 个，健康 1 个');
    await expect
      .poll(() => detail.getByTestId('health-description').textContent(), POLL)
      .toBe('照片的 PPD 3.45 是其 3 个样本的平均值：属健康范围（PPD < 4）。');
    await shot('detail-zh-1440', false);
    await page.setViewportSize(PHONE);
    await detail.getByTestId('health-assessment').scrollIntoViewIfNeeded();
    await shot('detail-zh-390', false);
    await close();
    await e2e.setLanguage('en');
    await open();
    await expect
      .poll(() => detail.getByTestId('health-title').textContent(), POLL)
      .toBe('3 specimens: 2 mild, 1 healthy');
    await shot('detail-en-390', false);
    await close();
    await page.setViewportSize(DESKTOP);
  });

  it('an image card shows the reviewed value, marked, and a later run nobody reviewed', async () => {
    // TME419_1: the researcher reviews the first run (1.5 on every slice); the second run, newer, is not reviewed.
    const older = (await resultsOf(`&task_id=${tasks.first}&search=TME419_1`))[0]!;
    for (const s of older.specimens)
      await e2e.server.api(`/api/predictions/${older.id}/specimens/${s.index}/`, {
        method: 'PATCH',
        body: { ppd: 1.5 },
      });
    const later = (await resultsOf(`&task_id=${tasks.second}&search=TME419_1`))[0]!;
    expect(later.ppd_value).not.toBe(1.5);
    // TME419_3: its only (newest) result is reviewed: its first slice excluded.
    const only = (await resultsOf(`&task_id=${tasks.first}&search=TME419_3`))[0]!;
    await e2e.server.api(`/api/predictions/${only.id}/specimens/${only.specimens[0]!.index}/`, {
      method: 'PATCH',
      body: { excluded: true },
    });
    const reviewedOnly = (await resultsOf(`&task_id=${tasks.first}&search=TME419_3`))[0]!;

    await e2e.goto('images');
    const card = (name: string) => page.locator(`[data-testid="image-card"][data-image-name="${name}"]`);
    await expect.poll(() => card('TME419_1.jpg').getByTestId('ppd-badge').textContent(), POLL).toBe('PPD 1.50');
    // On a desktop card, one line (the sentence took three); the whole sentence in its tooltip.
    const laterNote = card('TME419_1.jpg').getByTestId('image-reviewed');
    await expect
      .poll(() => laterNote.textContent(), POLL)
      .toBe(` Reviewed · newer run: ${later.ppd_value!.toFixed(2)}`);
    expect(await laterNote.getAttribute('title')).toBe(
      `Reviewed · a later run, not reviewed, reads ${later.ppd_value!.toFixed(2)}`,
    );
    const oneLine = () =>
      laterNote.evaluate((el) => el.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(el).lineHeight));
    expect(await oneLine()).toBe(true);
    await expect
      .poll(() => card('TME419_3.jpg').getByTestId('ppd-badge').textContent(), POLL)
      .toBe(`PPD ${reviewedOnly.ppd_value!.toFixed(2)}`);
    await expect.poll(() => card('TME419_3.jpg').getByTestId('image-reviewed').textContent(), POLL).toBe(' Reviewed');
    expect(await card('TME419_2.jpg').getByTestId('image-reviewed').count()).toBe(0);
    await shot('images-en-1440');
    await e2e.setLanguage('zh');
    await expect.poll(() => laterNote.textContent(), POLL).toBe(` 已复核 · 较新运行：${later.ppd_value!.toFixed(2)}`);
    expect(await laterNote.getAttribute('title')).toBe(
      `已复核 · 之后的一次运行（未复核）为 ${later.ppd_value!.toFixed(2)}`,
    );
    await expect.poll(() => card('TME419_3.jpg').getByTestId('image-reviewed').textContent(), POLL).toBe(' 已复核');
    await shot('images-zh-1440');
    await page.setViewportSize(PHONE);
    await expect.poll(() => card('TME419_1.jpg').getByTestId('ppd-badge').textContent(), POLL).toBe('PPD 1.50');
    // The reviewed cards are further down: the picture shows them (the list scrolls inside the page).
    await card('TME419_1.jpg').scrollIntoViewIfNeeded();
    await shot('images-zh-390', false);
    await e2e.setLanguage('en');
    await expect
      .poll(() => laterNote.textContent(), POLL)
      .toBe(` Reviewed · newer run: ${later.ppd_value!.toFixed(2)}`);
    await card('TME419_1.jpg').scrollIntoViewIfNeeded();
    // On a phone's narrow card the note may take two lines, never more, and its value is not cut.
    expect(
      await laterNote.evaluate(
        (el) => el.getBoundingClientRect().height < 2.5 * parseFloat(getComputedStyle(el).lineHeight),
      ),
    ).toBe(true);
    expect(await laterNote.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot('images-en-390', false);
    await page.setViewportSize(DESKTOP);
  });
});

describe('the home page shows this library', () => {
  it("counts this library's photos, specimens, reviews and researchers, in English and Chinese", async () => {
    const figures = (await e2e.server.api('/api/figures/')).body;
    const newest = await resultsOf('&newest_per_image=true');
    expect(figures).toEqual({
      photos: 5,
      photos_scored: 5,
      specimens_scored: newest.reduce((a, r) => a + r.sub_ppd_values.length, 0),
      // TME693_2 (the detail's), TME419_1 (its older run) and TME419_3.
      photos_reviewed: 3,
      researchers: 1,
    });
    await e2e.goto('home');
    await page.getByTestId('stat-photos').scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.locator('.home-stat-value').allTextContents(), POLL)
      .toEqual(['5', String(figures.specimens_scored), '3', '1']);
    // a label agrees with its figure: one researcher, not "1 Researchers"
    await expect
      .poll(() => page.locator('.home-stat-label').allTextContents(), POLL)
      .toEqual(['Photos in the library', 'Specimens scored', 'Photos reviewed', 'Researcher']);
    await statsShot('home-stats-en-1440');
    await e2e.setLanguage('zh');
    await page.getByTestId('stat-photos').scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.locator('.home-stat-label').allTextContents(), POLL)
      .toEqual(['库中照片', '已评分样本', '已复核照片', '科研人员']);
    await statsShot('home-stats-zh-1440');
    await page.setViewportSize(PHONE);
    await page.getByTestId('stat-photos').scrollIntoViewIfNeeded();
    await statsShot('home-stats-zh-390');
    await e2e.setLanguage('en');
    await page.getByTestId('stat-photos').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('.home-stat-label').first().textContent(), POLL).toBe('Photos in the library');
    await statsShot('home-stats-en-390');
    await page.setViewportSize(DESKTOP);
  });
});

/** A picture of the statistics block alone, beside the full-page ones. */
async function statsShot(name: string): Promise<void> {
  const file = await screenshotOf(page.getByTestId('home-stats'), `issue25-${name}`);
  if (file) shots.push(file);
}
