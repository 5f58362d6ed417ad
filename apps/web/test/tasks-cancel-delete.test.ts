import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { makeGreyJpeg, makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { chooseSelectOption, escapeDialog, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { englishSentences } from './helpers/english-sentences';

/** Tasks screen against a real server: live progress, cancel, delete (results go, images stay), empty states. */
let e2e: E2e;
let page: Page;
let imageIds: number[] = [];
const IMAGES = 240;

const toast = (p: Page, text: string) => p.locator('.ant-message-notice').filter({ hasText: text });
const row = (id: number) => page.locator(`[data-testid="task-row"][data-task-id="${id}"]`);

async function createTask(name: string, ids: number[]): Promise<number> {
  const res = await e2e.server.api('/api/tasks/prediction/', { method: 'POST', body: { name, image_ids: ids } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function waitForApiStatus(id: number, status: string): Promise<void> {
  await expect
    .poll(async () => (await e2e.server.api(`/api/tasks/${id}/`)).body.status, { timeout: 90_000, interval: 200 })
    .toBe(status);
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const files = [];
  // Enough images that the long task is still running when it is cancelled, however loaded the machine is
  // (80 were all scored before the cancel click in a loaded run). 24 distinct pictures, each uploaded 10 times.
  const pictures: Buffer[] = [];
  for (let i = 0; i < 24; i++) pictures.push(await makeSpecimenJpeg({ seed: 100 + i }));
  for (let i = 1; i <= IMAGES; i++) files.push({ name: `plot_${i}.jpg`, bytes: pictures[i % pictures.length]! });
  const up = await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' });
  expect(up.status).toBe(201);
  imageIds = up.body.uploaded.map((image: { id: number }) => image.id);
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

describe('tasks screen', () => {
  let small = 0;
  let long = 0;

  it('shows the empty state before any task exists', async () => {
    await e2e.goto('tasks');
    await expect.poll(() => page.getByTestId('tasks-empty').textContent(), POLL).toContain('No tasks yet');
  });

  it('follows a running task live with one list request per poll, and cancels it', async () => {
    small = await createTask('Small batch', imageIds.slice(0, 2));
    await waitForApiStatus(small, 'completed');
    long = await createTask('Long batch', imageIds);
    const taskRequests: string[] = [];
    const inFlight = new Set<Request>();
    const isTaskRequest = (req: Request) => new URL(req.url()).pathname.startsWith('/api/tasks');
    const onRequest = (req: Request) => {
      if (!isTaskRequest(req)) return;
      taskRequests.push(`${req.method()} ${new URL(req.url()).pathname}`);
      inFlight.add(req);
    };
    const onDone = (req: Request) => inFlight.delete(req);
    page.on('request', onRequest);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
    // Refresh is disabled and spinning while the list loads (the real answer is held back a moment).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/api/tasks/?*',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.getByTestId('tasks-refresh').click();
    await expect.poll(() => page.getByTestId('tasks-refresh').isDisabled(), POLL).toBe(true);
    await expect.poll(() => page.getByTestId('tasks-refresh').locator('.anticon-spin').count(), POLL).toBe(1);
    release();
    await expect.poll(() => page.getByTestId('tasks-refresh').isDisabled(), POLL).toBe(false);

    const running = row(long);
    await running.waitFor();
    await expect.poll(() => running.getAttribute('data-status'), POLL).toBe('running');
    // Progress arrives by polling: the percentage moves without any click.
    await expect
      .poll(async () => Number((await running.locator('.ant-progress-indicator').textContent())?.replace('%', '')), {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    await expect.poll(() => running.locator('.ant-progress-indicator').textContent(), POLL).toMatch(/^\d+%$/);
    await expect
      .poll(() => page.getByTestId('task-summary-running').locator('.ant-statistic-content').textContent(), POLL)
      .toContain('1');

    // Details of a running task: processed count and the remaining-time estimate.
    await running.getByTestId('task-details').click();
    const details = page.getByTestId('task-details-panel');
    await details.waitFor();
    await expect
      .poll(() => details.getByTestId('remaining-time').textContent(), POLL)
      .toMatch(/^About \d+ (minute|second)s? remaining$/);
    await expect
      .poll(() => details.getByTestId('processed-count').textContent(), POLL)
      .toMatch(new RegExp(`^\\d+ / ${IMAGES} images processed$`));
    await screenshot(page, 'tasks-details-running-en-1440', false);
    await escapeDialog(page, details);
    await screenshot(page, 'tasks-running-en-1440');

    // Only the list is polled, never one request per task.
    expect(taskRequests.length).toBeGreaterThan(1);
    expect(taskRequests.every((r) => r === 'GET /api/tasks/')).toBe(true);

    // Cancelling is confirmed first (issue 15 item 13): "Keep running" leaves the task running.
    await running.getByTestId('task-cancel').click();
    await page.getByRole('button', { name: 'Keep running' }).click();
    expect((await e2e.server.api(`/api/tasks/${long}/`)).body.status).toBe('running');
    await running.getByTestId('task-cancel').click();
    await page.getByTestId('task-cancel-confirm').click();
    await toast(page, 'Task cancelled successfully').waitFor();
    await expect.poll(() => running.getAttribute('data-status'), POLL).toBe('cancelled');
    const cancelled = (await e2e.server.api(`/api/tasks/${long}/`)).body;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.processed_count).toBeLessThan(IMAGES);
    await expect.poll(() => running.getByTestId('task-cancel').count(), POLL).toBe(0);
    // Issue 15 item 5: a cancelled task says so under its bar, not "Completed".
    await running.getByTestId('task-details').click();
    await expect.poll(() => details.getByTestId('remaining-time').textContent(), POLL).toBe('Cancelled');
    await escapeDialog(page, details);

    // With nothing running, polling stops: once the last answer is in, no task request is made over more than
    // two poll intervals. (The wait is the observation window of this negative check, not synchronisation.)
    await expect.poll(() => inFlight.size, POLL).toBe(0);
    taskRequests.length = 0;
    await page.waitForTimeout(5_000);
    expect(taskRequests).toEqual([]);
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  });

  it('searches case-insensitively, filters by status and shows the no-match state', async () => {
    const search = page.getByPlaceholder('Search tasks by name');
    await search.fill('LONG');
    await expect.poll(() => page.getByTestId('task-row').count(), POLL).toBe(1);
    await search.fill('nothing like this');
    await expect
      .poll(() => page.getByTestId('tasks-empty').textContent(), POLL)
      .toContain('No tasks match your search');
    await search.fill('');
    await chooseSelectOption(page, 'tasks-status-filter', 'Cancelled');
    await expect.poll(() => page.getByTestId('task-row').count(), POLL).toBe(1);
    await expect.poll(() => page.getByTestId('task-row').getAttribute('data-task-id'), POLL).toBe(String(long));
    await chooseSelectOption(page, 'tasks-status-filter', 'All statuses');
    await expect.poll(() => page.getByTestId('task-row').count(), POLL).toBe(2);
    // success rate: 1 completed of 2
    await expect
      .poll(() => page.getByTestId('task-summary-rate').locator('.ant-statistic-content').textContent(), POLL)
      .toContain('50');
  });

  it("names each task's model by its engine, not the raw model id", async () => {
    const api = (await e2e.server.api(`/api/tasks/${long}/`)).body;
    expect(api.model_type).toBe('deeplabv3plus_resnet101');
    await expect
      .poll(() => row(long).getByTestId('task-model').textContent(), POLL)
      .toBe(api.engine_label ?? 'DeepLabV3+ ResNet-101');
  });

  it('another backend (no status_counts, a task without status or engine label): sensible cards, no-match state', async () => {
    const isList = (url: URL) => url.pathname === '/api/tasks/';
    await page.route(isList, async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      delete body.status_counts;
      for (const task of body.results) {
        if (task.id !== small) continue;
        delete task.status;
        task.engine_label = null;
      }
      // Another backend sends none of our server's contract header: the app reads its body through the normalisers.
      const { 'x-cassavascope-contract': _ours, ...headers } = res.headers();
      await route.fulfill({ response: res, json: body, headers });
    });
    try {
      await page.getByTestId('tasks-refresh').click();
      await expect.poll(() => row(small).getAttribute('data-status'), POLL).toBe('unknown');
      await expect.poll(() => row(small).getByTestId('task-status').textContent(), POLL).toBe('Unknown');
      await expect.poll(() => row(small).getByTestId('task-cancel').count(), POLL).toBe(0);
      await expect.poll(() => row(small).getByTestId('task-model').textContent(), POLL).toBe('DeepLabV3+ ResNet-101');
      const total = page.getByTestId('task-summary-total').locator('.ant-statistic-content');
      await expect.poll(() => total.textContent(), POLL).toContain('2');
      // A search that matches nothing: "no matches", and the cards keep the totals of the unfiltered list.
      const search = page.locator('.tasks-search input');
      await search.fill('nothing like this');
      await expect
        .poll(() => page.getByTestId('tasks-empty').textContent(), POLL)
        .toContain('No tasks match your search');
      await expect.poll(() => total.textContent(), POLL).toContain('2');
      await e2e.setLanguage('zh');
      await expect.poll(() => page.getByTestId('tasks-empty').textContent(), POLL).toContain('没有');
      await screenshot(page, 'tasks-no-match-zh-1440');
      await search.fill('');
      await expect.poll(() => row(small).getByTestId('task-status').textContent(), POLL).toBe('未知');
      await screenshot(page, 'tasks-unknown-zh-1440');
      await e2e.setLanguage('en');
      await screenshot(page, 'tasks-unknown-en-1440');
    } finally {
      await page.unroute(isList);
    }
    await page.getByTestId('tasks-refresh').click();
    await expect.poll(() => row(small).getAttribute('data-status'), POLL).toBe('completed');
  });

  it('deletes a task after the warning: its results vanish, its images stay', async () => {
    const before = (await e2e.server.api(`/api/predictions/?task_id=${small}`)).body.count;
    expect(before).toBe(2);
    await row(small).getByTestId('task-delete').click();
    const warning = page.getByTestId('delete-warning');
    await warning.waitFor();
    await expect.poll(() => warning.textContent(), POLL).toContain('cannot be undone');
    await expect.poll(() => warning.textContent(), POLL).toContain('The original images are not deleted');
    await screenshot(page, 'tasks-delete-en-1440', false);
    await page.locator('.ant-modal').filter({ has: warning }).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Task deleted successfully').waitFor();
    await row(small).waitFor({ state: 'detached' });

    expect((await e2e.server.api(`/api/tasks/${small}/`)).status).toBe(404);
    expect((await e2e.server.api(`/api/predictions/?task_id=${small}`)).body.count).toBe(0);
    const images = (await e2e.server.api('/api/images/?page_size=100')).body;
    expect(images.count).toBe(IMAGES);
    for (const id of imageIds.slice(0, 2)) expect((await e2e.server.api(`/api/images/${id}/`)).status).toBe(200);

    await row(long).getByTestId('task-delete').click();
    await page.locator('.ant-modal:visible').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('tasks-empty').textContent(), POLL).toContain('No tasks yet');
    expect((await e2e.server.api('/api/images/')).body.count).toBe(IMAGES);

    // With every task gone the Results screen has nothing to show, and says how to get results.
    await e2e.goto('results');
    await expect
      .poll(() => page.getByTestId('results-empty').textContent(), POLL)
      .toContain('No prediction results yet');
    await page.getByPlaceholder('Search by image name').fill('plot');
    await page.getByPlaceholder('Search by image name').press('Enter');
    await expect
      .poll(() => page.getByTestId('results-empty').textContent(), POLL)
      .toContain('No results match the current filter');
    await screenshot(page, 'results-empty-en-1440');
  });

  it('a task whose photo was refused is completed, says so, and keeps a 100 % success rate (issue 25)', async () => {
    const grey = await e2e.server.upload(
      '/api/images/upload-files/',
      [{ name: 'grey.jpg', bytes: await makeGreyJpeg() }],
      { check_duplicate: '0' },
    );
    const refused = await createTask('Nothing to score', [grey.body.uploaded[0].id]);
    await waitForApiStatus(refused, 'completed');
    const task = (await e2e.server.api(`/api/tasks/${refused}/`)).body;
    expect(task).toMatchObject({ failed_count: 1, refused_count: 1, error_message: null });
    await e2e.goto('tasks');
    await expect.poll(() => row(refused).getAttribute('data-status'), POLL).toBe('completed');
    // A refusal is an outcome, not a red "Failed".
    await expect.poll(() => row(refused).getByTestId('task-status').textContent(), POLL).toBe('Completed, 1 refused');
    await expect
      .poll(() => page.getByTestId('task-summary-failed').locator('.ant-statistic-content').textContent(), POLL)
      .toContain('0');
    await expect
      .poll(() => page.getByTestId('task-summary-rate').locator('.ant-statistic-content').textContent(), POLL)
      .toContain('100');
    // Issue 15 item 17: one percent sign (no % icon before the number as well as the % after it).
    expect(await page.getByTestId('task-summary-rate').locator('[data-icon="percentage"]').count()).toBe(0);
    await row(refused).getByTestId('task-details').click();
    const details = page.getByTestId('task-details-panel');
    await details.waitFor();
    await expect
      .poll(() => details.getByTestId('status-text').textContent(), POLL)
      .toBe('The task has finished; its results are on the Results screen.');
    await expect.poll(() => details.getByTestId('task-status').textContent(), POLL).toBe('Completed, 1 refused');
    // Issue 15 item 5: nothing scored shows no 0.0 % confidence of nothing.
    await expect.poll(() => details.getByTestId('average-confidence').textContent(), POLL).toBe('--');
    await expect.poll(() => details.getByTestId('refused-count').textContent(), POLL).toBe('1');
    await expect
      .poll(() => details.getByTestId('nothing-scored').textContent(), POLL)
      .toContain('the engine refused the 1 photo, as it shows no specimen to score');
    expect(await details.getByTestId('task-error').count()).toBe(0);
    // Item 14: parameter values, and the TTA switch says it does nothing with the colour engine.
    await expect.poll(() => details.getByTestId('param-threshold').textContent(), POLL).toBe('0.5');
    await expect.poll(() => details.getByTestId('param-min-area').textContent(), POLL).toBe('100');
    await expect.poll(() => details.getByTestId('param-morph-kernel').textContent(), POLL).toBe('5');
    await expect.poll(() => details.getByTestId('param-morph-iterations').textContent(), POLL).toBe('1');
    await details.getByTestId('tta-no-effect').waitFor();
    // Item 2: wall time beside the summed worker time, each named.
    await expect.poll(() => details.textContent(), POLL).toContain('Wall time');
    await expect.poll(() => details.textContent(), POLL).toContain('Worker time (summed over workers)');
    await screenshot(page, 'tasks-details-refused-en-1440', false);
    await escapeDialog(page, details);
    await e2e.setLanguage('zh');
    await expect.poll(() => row(refused).getByTestId('task-status').textContent(), POLL).toBe('已完成，1 张被拒绝');
    await row(refused).getByTestId('task-details').click();
    await details.waitFor();
    await expect.poll(() => details.getByTestId('remaining-time').textContent(), POLL).toBe('已完成');
    await expect.poll(() => details.getByTestId('nothing-scored').textContent(), POLL).toContain('引擎拒绝评分');
    expect(englishSentences(await details.innerText())).toEqual([]);
    await screenshot(page, 'tasks-details-refused-zh-1440', false);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'tasks-details-refused-zh-390', false);
    await page.setViewportSize({ width: 1440, height: 900 });
    await escapeDialog(page, details);
    await e2e.setLanguage('en');
  });
});
