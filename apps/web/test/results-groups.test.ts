import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { chooseSelectOption, DESKTOP, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { zipBytes } from './helpers/test-files';

/**
 * Results' "By group" view (issue 17) in a real browser against the real server and engine: photos named
 * genotype_rep_dah_root get their fields from a pattern, a task scores them, and Results groups the scored
 * results by genotype (then by days after harvest): the table's mean and n are the server's, the chart is drawn,
 * a group opens the result list filtered to it (the group without a value too: the photos lacking the field).
 * In English and Chinese, wide and on a phone (where the task list and the cards' review mark must fit too).
 */
let e2e: E2e;
let page: Page;

const NAMES = [
  'TME419_1_7d_R1.jpg',
  'TME419_2_7d_R2.jpg',
  'TME419_3_14d_R1.jpg',
  'TME419_4_14d_R2.jpg',
  'TME693_1_7d_R1.jpg',
  'TME693_2_7d_R2.jpg',
  'TME693_3_7d_R3.jpg',
  'notes_field.jpg',
];

interface Group {
  key: Record<string, string | number | null>;
  images: number;
  mean: number;
}

async function groupsOf(by: string): Promise<Group[]> {
  const res = await e2e.server.api(`/api/predictions/groups/?by=${by}`);
  expect(res.status).toBe(200);
  return res.body as Group[];
}

/** The table row of a group: its first cells are the key's values. */
function groupRow(...values: string[]): Locator {
  let row = page.getByTestId('groups-table').locator('tbody tr.groups-row');
  for (const v of values) row = row.filter({ has: page.locator('td', { hasText: new RegExp(`^${v}$`) }) });
  return row;
}

/** The image names of the result cards on screen. */
function cardNames(): Promise<string[]> {
  return page.locator('[data-testid="result-card"] .result-card-name').allTextContents();
}

/**
 * On a phone a group's key, n, mean and its interval are on screen without scrolling: the first cells of each
 * row, the mean's header naming the interval under it.
 */
async function expectKeyNAndMeanOnScreen(meanHeader: string): Promise<void> {
  const table = page.getByTestId('groups-table');
  await expect.poll(() => table.locator('th').allTextContents(), POLL).toContain(meanHeader);
  const groups = await groupsOf('genotype');
  for (const row of await table.locator('tbody tr.groups-row').all()) {
    const key = (await row.locator('td').first().textContent())!;
    const group = groups.find((g) => (g.key.genotype ?? '') === key) ?? groups.find((g) => g.key.genotype === null)!;
    const seen = [
      row.locator('td').nth(0),
      row.locator('td').nth(1),
      row.getByTestId('group-mean'),
      row.getByTestId('group-mean-ci'),
    ];
    expect(await row.locator('td').nth(1).textContent()).toBe(String(group.images));
    expect(await row.getByTestId('group-mean').textContent()).toBe(group.mean.toFixed(2));
    for (const cell of seen) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
  }
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const entries = await Promise.all(
    NAMES.map(async (name, i) => ({
      name,
      // One photo with most of each slice discoloured: the engine asks a person to look at such a photo.
      bytes: await makeSpecimenJpeg({ seed: 3 + i * 5, ...(i === 2 ? { lesionShare: 0.85 } : {}) }),
    })),
  );
  const up = await e2e.server.upload('/api/images/upload-batch/', [{ name: 'trial.zip', bytes: zipBytes(entries) }], {
    check_duplicate: '0',
  });
  expect(up.status).toBe(201);
  const ids = (up.body.uploaded as { id: number }[]).map((i) => i.id);
  expect(ids).toHaveLength(NAMES.length);
  const parsed = await e2e.server.api('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: ids, apply: true },
  });
  expect(parsed.status).toBe(200);
  expect(parsed.body.matched).toHaveLength(NAMES.length - 1);
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Genotype trial', image_ids: ids },
  });
  expect(task.status).toBe(201);
  const deadline = Date.now() + 120_000;
  while ((await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status !== 'completed') {
    if (Date.now() > deadline) throw new Error('the task did not complete within 2 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

describe('results: the By group view', () => {
  it('shows mean and n per genotype with the chart, and opens a group as a filtered list (English)', async () => {
    const byGenotype = await groupsOf('genotype');
    const tme419 = byGenotype.find((g) => g.key.genotype === 'TME419')!;
    expect(tme419.images).toBe(4);

    await e2e.goto('results');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toContain('8');
    await page.getByTestId('results-view-groups').click();
    // Grouped by genotype until another field is picked: TME419, TME693 and the photo without a genotype.
    await expect
      .poll(() => groupRow('TME419').locator('td').allTextContents(), POLL)
      .toEqual([
        'TME419',
        '4',
        expect.any(String),
        tme419.mean.toFixed(2),
        expect.any(String),
        expect.any(String),
        expect.any(String),
      ]);
    await expect.poll(() => page.getByTestId('groups-table').locator('tbody tr.groups-row').count(), POLL).toBe(3);

    // The chart: one row per group, its n, both axes named.
    const plot = page.getByTestId('dot-plot');
    await expect.poll(() => plot.getByTestId('dot-plot-row').count(), POLL).toBe(byGenotype.length);
    const at = byGenotype.indexOf(tme419);
    expect(await plot.getByTestId('dot-plot-n').nth(at).textContent()).toBe('4');
    expect(await plot.getByTestId('dot-plot-ppd-axis').textContent()).toBe('PPD (0-10 scale)');
    expect(await plot.getByTestId('dot-plot-group-axis').textContent()).toBe('Genotype');
    // Each group's mean, and a dot per result: TME419's four, eight in all.
    expect(await plot.locator('.dot-plot-mean').count()).toBe(byGenotype.length);
    expect(await plot.getByTestId('dot-plot-row').nth(at).getByTestId('dot-plot-value').count()).toBe(4);
    expect(await plot.getByTestId('dot-plot-value').count()).toBe(NAMES.length);
    expect(await page.getByTestId('dot-plot-no-values').count()).toBe(0);
    await screenshot(page, 'results-groups-en-1440');

    // The group without a genotype lists the photo whose name did not match the pattern.
    await groupRow('\\(none\\)').click();
    await expect
      .poll(() => page.getByTestId('results-group-filter').textContent(), POLL)
      .toBe('Group: Genotype (none)');
    await expect.poll(cardNames, POLL).toEqual(['notes_field.jpg']);
    await page.getByTestId('results-view-groups').click();
    await page.getByTestId('results-group-filter').locator('.ant-tag-close-icon').click();
    await expect.poll(() => page.getByTestId('groups-table').locator('tbody tr.groups-row').count(), POLL).toBe(3);

    // Then by days after harvest: TME419 splits into 7 and 14 days.
    await chooseSelectOption(page, 'groups-then-by', 'Days after harvest');
    const byDay = await groupsOf('genotype,dah');
    const late = byDay.find((g) => g.key.genotype === 'TME419' && g.key.dah === 14)!;
    expect(late.images).toBe(2);
    await expect
      .poll(() => groupRow('TME419', '14').getByTestId('group-mean').textContent(), POLL)
      .toBe(late.mean.toFixed(2));
    await expect.poll(() => plot.getByTestId('dot-plot-row').count(), POLL).toBe(byDay.length);
    expect(await plot.getByTestId('dot-plot-group-axis').textContent()).toBe('Genotype · Days after harvest');

    // The group table exports as the server's CSV, with the same rows and means.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('groups-export').click()]);
    expect(download.suggestedFilename()).toBe(`prediction_groups_all_${new Date().toISOString().slice(0, 10)}.csv`);
    // The message names what was exported: the group table, not the results.
    await expect
      .poll(() => page.locator('.ant-message-notice').allTextContents(), POLL)
      .toContain('Group table exported');
    const [header, ...rows] = (await fs.readFile(await download.path()))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header![0]).toBe('germplasmName');
    const meanAt = header!.indexOf('PPD|CO_334:0000077');
    expect(rows.map((r) => [r[0], Number(r[meanAt])])).toEqual(byDay.map((g) => [g.key.genotype ?? '', g.mean]));

    // A group opens the result list filtered to it: only its two photos.
    await groupRow('TME419', '14').click();
    await expect.poll(() => page.getByTestId('results-grid').isVisible(), POLL).toBe(true);
    await expect
      .poll(() => page.getByTestId('results-group-filter').textContent(), POLL)
      .toBe('Group: Genotype TME419 · Days after harvest 14');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toBe('2 results');
    await expect
      .poll(async () => (await cardNames()).sort(), POLL)
      .toEqual(['TME419_3_14d_R1.jpg', 'TME419_4_14d_R2.jpg']);
    await screenshot(page, 'results-group-list-en-1440');
    // Removing the group's tag lists everything again.
    await page.getByTestId('results-group-filter').locator('.ant-tag-close-icon').click();
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toContain('8');
  });

  it('shows the same figures in Chinese and opens a group there too', async () => {
    await e2e.setLanguage('zh');
    await page.getByTestId('results-view-groups').click();
    const byDay = await groupsOf('genotype,dah');
    const tme693 = byDay.find((g) => g.key.genotype === 'TME693')!;
    expect(tme693.images).toBe(3);
    await expect
      .poll(() => page.getByTestId('groups-table').locator('th').allTextContents(), POLL)
      .toEqual(expect.arrayContaining(['基因型', '采后天数', '平均 PPD']));
    await expect
      .poll(() => groupRow('TME693', '7').getByTestId('group-mean').textContent(), POLL)
      .toBe(tme693.mean.toFixed(2));
    const plot = page.getByTestId('dot-plot');
    expect(await plot.getByTestId('dot-plot-ppd-axis').textContent()).toBe('PPD（0-10 分制）');
    await screenshot(page, 'results-groups-zh-1440');
    await groupRow('TME693', '7').click();
    await expect
      .poll(() => page.getByTestId('results-group-filter').textContent(), POLL)
      .toBe('分组：基因型 TME693 · 采后天数 7');
    await expect
      .poll(async () => (await cardNames()).sort(), POLL)
      .toEqual(['TME693_1_7d_R1.jpg', 'TME693_2_7d_R2.jpg', 'TME693_3_7d_R3.jpg']);
    await page.getByTestId('results-group-filter').locator('.ant-tag-close-icon').click();
    await e2e.setLanguage('en');
  });

  it('keeps the task, the filters, the layout and the By group fields across a reload; the cards follow the filters', async () => {
    const taskId = (await e2e.server.api('/api/tasks/')).body.results[0].id as number;
    await page.locator(`[data-testid="results-task"][data-task-id="${taskId}"]`).click();
    await page.getByPlaceholder('Search by image name').fill('TME419');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toBe('4 results');
    // The cards describe the four results listed, as the server's summary of the same filters does.
    const summary = (await e2e.server.api(`/api/predictions/summary/?task_id=${taskId}&search=TME419`)).body;
    expect(summary.count).toBe(4);
    await expect
      .poll(() => page.getByTestId('summary-total').locator('.ant-statistic-content-value').textContent(), POLL)
      .toBe('4');
    expect(await page.getByTestId('summary-total').locator('.ant-statistic-title').textContent()).toBe(
      'Images scored (filtered)',
    );
    expect(await page.getByTestId('summary-average').locator('.ant-statistic-content-value').textContent()).toBe(
      summary.average.toFixed(2),
    );
    await page.getByTestId('results-view-groups').click();
    await expect.poll(() => groupRow('TME419', '14').count(), POLL).toBe(1);

    await page.reload();
    await page.locator('.app-header').waitFor();
    await e2e.goto('results');
    // The same view: By group by genotype then days after harvest, over the same task and search.
    await expect.poll(() => groupRow('TME419', '14').count(), POLL).toBe(1);
    expect(await page.getByTestId('groups-table').locator('tbody tr.groups-row').count()).toBe(2);
    expect(await page.getByTestId('groups-then-by').textContent()).toContain('Days after harvest');
    expect(await page.getByPlaceholder('Search by image name').inputValue()).toBe('TME419');
    expect(
      await page.locator(`[data-testid="results-task"][data-task-id="${taskId}"]`).getAttribute('class'),
    ).toContain('is-current');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toBe('4 results');
    await screenshot(page, 'results-groups-kept-en-1440');

    // The list layout is kept too.
    await page.getByTestId('results-view').locator('.ant-segmented-item').nth(1).click();
    await page.reload();
    await page.locator('.app-header').waitFor();
    await e2e.goto('results');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toBe('4 results');
    expect(
      await page
        .getByTestId('results-view')
        .locator('.ant-segmented-item-selected .ant-segmented-item-label')
        .getAttribute('title'),
    ).toBe('List view');

    // A saved task that no longer exists: all tasks, and no error.
    await page.evaluate(() => {
      const saved = JSON.parse(localStorage.getItem('cassavascope.results.view')!);
      localStorage.setItem(
        'cassavascope.results.view',
        JSON.stringify({ ...saved, filter: { ...saved.filter, taskId: 999999, search: '' } }),
      );
    });
    await page.reload();
    await page.locator('.app-header').waitFor();
    await e2e.goto('results');
    await expect.poll(() => page.getByTestId('results-all-tasks').getAttribute('class'), POLL).toContain('is-current');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toContain('8');
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    expect(await page.getByTestId('summary-total').locator('.ant-statistic-title').textContent()).toBe(
      'Results scored (all tasks)',
    );

    // Back to the first visit's view for the phone test.
    await page.evaluate(() => localStorage.removeItem('cassavascope.results.view'));
    await page.reload();
    await page.locator('.app-header').waitFor();
    await e2e.goto('results');
  });

  it('fits a phone: the chart scrolls sideways, the tasks are a strip, a card keeps its review mark whole', async () => {
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toContain('8');
    // The task list is no box that scrolls inside the page.
    const sidebar = page.getByTestId('results-sidebar');
    expect(await sidebar.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    // Every review mark on a card shows its whole text.
    const marks = page.locator('[data-testid="result-card"] [data-testid="result-needs-review"]');
    await expect.poll(() => marks.count(), POLL).toBeGreaterThan(0);
    for (const mark of await marks.all()) {
      expect(await mark.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    await screenshot(page, 'results-grid-en-390');

    await page.getByTestId('results-view-groups').click();
    await expect.poll(() => page.getByTestId('dot-plot').isVisible(), POLL).toBe(true);
    // The chart keeps its text size and scrolls sideways inside its box rather than widen the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectKeyNAndMeanOnScreen('Mean PPD (95% CI)');
    await screenshot(page, 'results-groups-en-390');
    await e2e.setLanguage('zh');
    await expect.poll(() => page.getByTestId('dot-plot-ppd-axis').textContent(), POLL).toBe('PPD（0-10 分制）');
    await expectKeyNAndMeanOnScreen('平均 PPD（95% 置信区间）');
    await screenshot(page, 'results-groups-zh-390');
    await page.getByTestId('results-view').locator('.ant-segmented-item').first().click();
    await screenshot(page, 'results-grid-zh-390');
    await e2e.setLanguage('en');
    await page.setViewportSize(DESKTOP);
  });
});
