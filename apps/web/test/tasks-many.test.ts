import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGreyJpeg } from '../../server/test/helpers/specimens';
import { DESKTOP, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/** More tasks than the first page (100): summary cards count them all, "Show more" reaches the rest, search asks the server. */
const TASKS = 130;

describe('tasks screen with many tasks (e2e)', () => {
  let e2e: E2e;
  beforeAll(async () => {
    e2e = await startE2e();
    const up = await e2e.server.upload('/api/images/upload-files/', [
      { name: 'grey.jpg', bytes: await makeGreyJpeg() },
    ]);
    expect(up.status).toBe(201);
    const imageId = up.body.uploaded[0].id as number;
    // A grey picture has no specimen: each task ends at once (completed, its photo refused: issue 25), so the
    // counts settle quickly.
    for (let i = 1; i <= TASKS; i++) {
      const res = await e2e.server.api('/api/tasks/prediction/', {
        method: 'POST',
        body: { name: `Batch ${i}`, image_ids: [imageId] },
      });
      expect(res.status).toBe(201);
    }
    const deadline = Date.now() + 120_000;
    while ((await e2e.server.api('/api/tasks/?page_size=1')).body.status_counts.completed < TASKS) {
      if (Date.now() > deadline) throw new Error('the tasks did not all end');
      await new Promise((r) => setTimeout(r, 250));
    }
    await e2e.open();
    await e2e.goto('tasks');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  const rows = () => e2e.page.locator('[data-testid="task-row"]');
  const cardValue = (tone: string) =>
    e2e.page.getByTestId(`task-summary-${tone}`).locator('.ant-statistic-content-value').textContent();

  it('summary cards count every task, the list shows the newest 100 and "Show more" the rest', async () => {
    const { page } = e2e;
    await expect.poll(() => cardValue('total'), POLL).toBe(String(TASKS));
    await expect.poll(() => cardValue('completed'), POLL).toBe(String(TASKS));
    await expect.poll(() => rows().count(), POLL).toBe(100);
    await expect.poll(() => rows().first().locator('.task-row-title h3').textContent(), POLL).toBe(`Batch ${TASKS}`);
    await expect
      .poll(() => page.getByTestId('tasks-more').textContent(), POLL)
      .toContain(`Showing the newest 100 of ${TASKS} tasks`);
    await page.getByTestId('tasks-more').scrollIntoViewIfNeeded();
    await screenshot(page, 'tasks-many-en-1440', false);
    await e2e.setLanguage('zh');
    await page.setViewportSize(PHONE);
    await expect
      .poll(() => page.getByTestId('tasks-more').textContent(), POLL)
      .toContain(`显示最新的 100 个任务,共 ${TASKS} 个`);
    await page.getByTestId('tasks-more').scrollIntoViewIfNeeded();
    await screenshot(page, 'tasks-many-zh-390', false);
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
    await page.getByTestId('tasks-more').getByRole('button').click();
    await expect.poll(() => rows().count(), POLL).toBe(TASKS);
    await expect.poll(() => page.getByTestId('tasks-more').count(), POLL).toBe(0);
  });

  it('search goes to the server and reaches tasks beyond the first page; the summary stays over all tasks', async () => {
    const { page } = e2e;
    await page.getByPlaceholder('Search tasks by name').fill('batch 7');
    // Batch 7 and Batch 70-79: the oldest ones were not on the first page.
    await expect.poll(() => rows().count(), POLL).toBe(11);
    await expect.poll(() => rows().last().locator('.task-row-title h3').textContent(), POLL).toBe('Batch 7');
    await expect.poll(() => cardValue('total'), POLL).toBe(String(TASKS));
  });
  it('server unreachable: Refresh keeps the last list; a first load that fails is an error with a retry, never "no tasks yet"', async () => {
    const { page } = e2e;
    await page.getByPlaceholder('Search tasks by name').fill('');
    await expect.poll(() => rows().count(), POLL).toBeGreaterThan(11);
    const isList = (url: URL) => url.pathname === '/api/tasks/';
    await page.route(isList, (route) => route.abort('connectionrefused'));
    try {
      await page.getByTestId('tasks-refresh').click();
      await expect
        .poll(() => page.locator('.ant-message-notice').filter({ hasText: 'Failed to load tasks' }).count(), POLL)
        .toBeGreaterThan(0);
      await expect.poll(() => rows().count(), POLL).toBeGreaterThan(11);
      expect(await page.getByTestId('tasks-empty').count()).toBe(0);
      expect(await cardValue('total')).toBe(String(TASKS));
      // A fresh start while the server is away: nothing to keep.
      await page.reload();
      await page.locator('.app-header').waitFor();
      await e2e.goto('tasks');
      await expect.poll(() => page.getByTestId('tasks-error').textContent(), POLL).toContain('Network error');
      expect(await page.getByTestId('tasks-empty').count()).toBe(0);
      expect(await page.getByTestId('task-summary-total').locator('.ant-statistic-content').textContent()).toContain(
        '–',
      );
      await screenshot(page, 'tasks-offline-en-1440', false);
      await e2e.setLanguage('zh');
      await page.setViewportSize(PHONE);
      await expect.poll(() => page.getByTestId('tasks-error').textContent(), POLL).toContain('数据加载失败');
      await screenshot(page, 'tasks-offline-zh-390', false);
      await page.setViewportSize(DESKTOP);
      await e2e.setLanguage('en');
    } finally {
      await page.unroute(isList);
    }
    await page.getByTestId('tasks-error-retry').click();
    await expect.poll(() => rows().count(), POLL).toBe(100);
    await expect.poll(() => cardValue('total'), POLL).toBe(String(TASKS));
  });
});
