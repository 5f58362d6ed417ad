import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enReview from '../src/locales/en/review.json';
import enTasks from '../src/locales/en/tasks.json';
import zhTasks from '../src/locales/zh/tasks.json';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { DESKTOP, escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * Issue 25 item 8 with sign-in on, in a real browser against a real server: a task shows who started it on its row
 * (and in its details), in English and Chinese; a viewer (read-only) sees no review key hints and no "next to
 * review" marker in the result detail, while a researcher does.
 */
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'li.viewer', password: 'li.viewer-pw-1' };
const RESEARCHER = { username: 'wang.researcher', password: 'wang.researcher-pw-1' };

let e2e: E2e;
let taskId = 0;

async function apiSession(username: string, password: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function apiJson(pathname: string, cookie: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(e2e.server.url + pathname, {
    method: init.method ?? 'GET',
    headers: { cookie, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

async function signIn(user: { username: string; password: string }): Promise<void> {
  const { page } = e2e;
  await page.getByTestId('sign-in-form').waitFor();
  await page.getByTestId('sign-in-username').fill(user.username);
  await page.getByTestId('sign-in-password').fill(user.password);
  await page.getByTestId('sign-in-submit').click();
  await page.locator('.app-header').waitFor();
  await page.getByTestId('user-menu').waitFor();
}

async function openDetail(): Promise<void> {
  const { page } = e2e;
  await e2e.goto('results');
  await page.locator(`[data-testid="results-task"][data-task-id="${taskId}"]`).click();
  await page.locator('[data-testid="result-card"]').first().click();
  await page.getByTestId('result-detail').waitFor();
  await page.getByTestId('review-tools').waitFor();
}

beforeAll(async () => {
  e2e = await startE2e({ env: { AUTH: 'on', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  const admin = await apiSession(ADMIN.username, ADMIN.password);
  for (const [user, role] of [
    [VIEWER, 'viewer'],
    [RESEARCHER, 'researcher'],
  ] as const) {
    const made = await apiJson('/api/users/', admin, {
      method: 'POST',
      body: { username: user.username, password: user.password, role },
    });
    expect(made.status).toBe(201);
  }
  // The researcher uploads a photo of three slices and starts a task over it.
  const researcher = await apiSession(RESEARCHER.username, RESEARCHER.password);
  const form = new FormData();
  form.append(
    'files',
    new Blob([new Uint8Array(await makeSpecimenJpeg({ seed: 5, width: 720, height: 480 }))]),
    'tray.jpg',
  );
  const up = await fetch(`${e2e.server.url}/api/images/upload-files/`, {
    method: 'POST',
    headers: { cookie: researcher },
    body: form,
  });
  expect(up.status).toBe(201);
  const imageId = ((await up.json()) as { uploaded: { id: number }[] }).uploaded[0]!.id;
  const task = await apiJson('/api/tasks/prediction/', researcher, {
    method: 'POST',
    body: { name: 'Started by Wang', image_ids: [imageId] },
  });
  expect(task.status).toBe(201);
  taskId = task.body.id;
  const deadline = Date.now() + 180_000;
  while ((await apiJson(`/api/tasks/${taskId}/`, researcher)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error('the task did not end');
    await new Promise((r) => setTimeout(r, 250));
  }
  await e2e.page.goto(e2e.server.url + '/');
});

afterAll(async () => {
  await e2e?.close();
});

describe('who started a task, and what a viewer sees (issue 25 item 8)', () => {
  it('shows who started a task on its row, in English and Chinese', async () => {
    const { page } = e2e;
    await signIn(VIEWER);
    await e2e.goto('tasks');
    const row = page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
    await expect.poll(() => row.getByTestId('task-row-created-by').textContent(), POLL).toBe(RESEARCHER.username);
    expect(await row.textContent()).toContain(enTasks.row.created_by);
    await screenshot(page, 'issue25c-task-row-creator-en-1440', false);
    await e2e.setLanguage('zh');
    await expect.poll(() => row.textContent(), POLL).toContain(zhTasks.row.created_by);
    expect(await row.getByTestId('task-row-created-by').textContent()).toBe(RESEARCHER.username);
    await screenshot(page, 'issue25c-task-row-creator-zh-1440', false);
    await page.setViewportSize(PHONE);
    await expect.poll(() => row.getByTestId('task-row-created-by').isVisible(), POLL).toBe(true);
    await screenshot(page, 'issue25c-task-row-creator-zh-390', false);
    await e2e.setLanguage('en');
    await expect.poll(() => row.textContent(), POLL).toContain(enTasks.row.created_by);
    await screenshot(page, 'issue25c-task-row-creator-en-390', false);
    await page.setViewportSize(DESKTOP);
  });

  it('a viewer sees no review key hints and no "next to review" marker; a researcher does', async () => {
    const { page } = e2e;
    await openDetail();
    const detail = page.getByTestId('result-detail');
    await detail.getByTestId('specimen-card').first().waitFor();
    expect(await detail.getByTestId('review-keys').count()).toBe(0);
    expect(await detail.getByTestId('review-target').count()).toBe(0);
    expect(await detail.textContent()).not.toContain('A accept');
    // ...and the keys do nothing for a viewer.
    await page.keyboard.press('a');
    await page.keyboard.press('x');
    await screenshot(page, 'issue25c-viewer-detail-en-1440', false);
    await escapeDialog(page, detail);
    await e2e.signOut();

    await signIn(RESEARCHER);
    await openDetail();
    await expect.poll(() => detail.getByTestId('review-keys').textContent(), POLL).toBe(enReview.tools.keys);
    await expect.poll(() => detail.getByTestId('review-target').count(), POLL).toBe(1);
    // The viewer's key presses changed nothing.
    const researcher = await apiSession(RESEARCHER.username, RESEARCHER.password);
    const results = (await apiJson(`/api/predictions/?task_id=${taskId}`, researcher)).body.results;
    expect(results[0].reviewed).toBe(false);
  });
});
