import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page, Route } from 'playwright-core';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { POLL, PHONE, DESKTOP, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/** The connection test calls the real /api/status/: success shows the server's figures, a stopped server the checklist. */
let e2e: E2e;
let page: Page;

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const files = [
    { name: 'a.jpg', bytes: await makeSpecimenJpeg({ seed: 1 }) },
    { name: 'b.jpg', bytes: await makeSpecimenJpeg({ seed: 2 }) },
  ];
  expect((await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' })).status).toBe(201);
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

describe('connection screen', () => {
  it('tests the real server: testing (button disabled), then its status and checked endpoints', async () => {
    await e2e.goto('connection');
    const card = page.getByTestId('connection-test');
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('idle');
    await expect.poll(() => page.getByTestId('connection-last').textContent(), POLL).toBe('Last test: never');

    // Hold the real answer back a moment so the testing state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/api/status/',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.getByTestId('connection-start').click();
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('testing');
    await expect.poll(() => page.getByTestId('connection-start').isDisabled(), POLL).toBe(true);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), POLL).toBe('Testing connection…');
    release();

    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('success');
    await expect.poll(() => page.getByTestId('connection-start').isDisabled(), POLL).toBe(false);
    const status = (await e2e.server.api('/api/status/')).body;
    await expect.poll(() => page.getByTestId('status-images').textContent(), POLL).toBe(String(status.image_count));
    await expect.poll(() => page.getByTestId('status-tasks').textContent(), POLL).toBe(String(status.task_count));
    await expect.poll(() => page.getByTestId('status-version').textContent(), POLL).toBe(status.version);
    const endpoints = page.getByTestId('endpoint');
    await expect.poll(() => endpoints.count(), POLL).toBe(status.endpoints.length);
    for (let i = 0; i < status.endpoints.length; i++) {
      await expect.poll(() => endpoints.nth(i).textContent(), POLL).toContain(status.endpoints[i].path);
      await expect.poll(() => endpoints.nth(i).getAttribute('data-ok'), POLL).toBe(String(status.endpoints[i].ok));
      await expect
        .poll(() => endpoints.nth(i).textContent(), POLL)
        .toContain(status.endpoints[i].ok ? 'Normal' : 'Not responding');
    }
    await expect.poll(() => page.getByTestId('connection-last').textContent(), POLL).not.toContain('never');
    await expect.poll(() => page.getByTestId('status-database').textContent(), POLL).toBe('SQLite (embedded file)');
    await expect.poll(() => page.getByTestId('status-queue').textContent(), POLL).toBe('Built-in (in the server)');
    await screenshot(page, 'connection-success-en-1440');
    await e2e.setLanguage('zh');
    await page.getByText('连接成功').waitFor();
    // Engine, database, storage and queue read in Chinese too (the test server: colour engine, sqlite, local, embedded).
    await expect.poll(() => page.getByTestId('status-engine').textContent(), POLL).toBe('颜色分割（CIELAB）');
    await expect.poll(() => page.getByTestId('status-database').textContent(), POLL).toBe('SQLite（内置文件）');
    await expect.poll(() => page.getByTestId('status-storage').textContent(), POLL).toBe('本地磁盘');
    await expect.poll(() => page.getByTestId('status-queue').textContent(), POLL).toBe('内置（服务器进程内）');
    // Free space on the server's data disk (issue 13), with a warning only when it runs low.
    await expect
      .poll(() => page.getByTestId('status-disk').textContent(), POLL)
      .toMatch(/^共 \d+\.\d GB，可用 \d+\.\d GB/);
    await screenshot(page, 'connection-success-zh-1440');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'connection-success-zh-390');
    await e2e.setLanguage('en');
    await page.getByText('Connected').first().waitFor();
    await screenshot(page, 'connection-success-en-390');
    await page.setViewportSize(DESKTOP);
  });

  it('warns when the server reports its disk running low (issue 13)', async () => {
    await page.route(
      '**/api/status/',
      async (route) => {
        const real = await route.fetch();
        const body = {
          ...(await real.json()),
          disk: { free_bytes: 200 * 1024 ** 2, total_bytes: 50 * 1024 ** 3, low: true },
        };
        await route.fulfill({ response: real, json: body });
      },
      { times: 1 },
    );
    await page.getByTestId('connection-start').click();
    const disk = page.getByTestId('status-disk');
    await expect.poll(() => disk.getAttribute('data-low'), POLL).toBe('true');
    await expect
      .poll(() => disk.textContent(), POLL)
      .toBe('0.2 GB free of 50.0 GBRunning low: free space before uploads are refused');
    await screenshot(page, 'connection-disk-low-en-1440');
  });

  it('an answer that breaks the contract is an error on screen, in English and Chinese, and in the console (issue 16)', async () => {
    const logged: string[] = [];
    const onConsole = (msg: ConsoleMessage) => {
      if (msg.type() === 'error') logged.push(msg.text());
    };
    page.on('console', onConsole);
    // The real answer, its headers (our server's contract header) kept, with one field of the wrong type.
    const broken = async (route: Route) => {
      const real = await route.fetch();
      await route.fulfill({ response: real, json: { ...(await real.json()), image_count: 'many' } });
    };
    await page.route('**/api/status/', broken);
    try {
      await page.getByTestId('connection-start').click();
      const card = page.getByTestId('connection-test');
      await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('error');
      const cause = page.getByTestId('connection-error').locator('.ant-alert-description');
      await expect
        .poll(() => cause.textContent(), POLL)
        .toBe("The server's answer did not have the expected form (details in the browser console)");
      await expect.poll(() => logged.find((line) => line.includes('GET /api/status/')), POLL).toContain('image_count');
      await expect.poll(() => page.getByTestId('connection-status').count(), POLL).toBe(0);
      await screenshot(page, 'connection-mismatch-en-1440');
      await e2e.setLanguage('zh');
      await expect.poll(() => cause.textContent(), POLL).toBe('服务器返回的数据格式与约定不符（详情见浏览器控制台）');
      await screenshot(page, 'connection-mismatch-zh-1440');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'connection-mismatch-zh-390');
      await e2e.setLanguage('en');
      await expect.poll(() => cause.textContent(), POLL).toContain("The server's answer");
      await screenshot(page, 'connection-mismatch-en-390');
    } finally {
      await page.setViewportSize(DESKTOP);
      await page.unroute('**/api/status/', broken);
      page.off('console', onConsole);
    }
  });

  it('shows the message and the five-item checklist when the server is stopped', async () => {
    await e2e.server.close();
    await page.getByTestId('connection-start').click();
    const card = page.getByTestId('connection-test');
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('error');
    const error = page.getByTestId('connection-error');
    await expect.poll(() => error.textContent(), POLL).toContain('Connection failed');
    // The cause in the UI's language, not the browser's English fetch error.
    await expect
      .poll(() => error.locator('.ant-alert-description').textContent(), POLL)
      .toBe('Network error: the server could not be reached');
    const items = page.getByTestId('connection-checklist').locator('li');
    await expect
      .poll(() => items.allTextContents(), POLL)
      .toEqual([
        'Check that the backend server is running',
        'Confirm the API address is correct',
        'Check the network connection',
        'Check the browser console for errors',
        'Check the firewall settings',
      ]);
    await expect.poll(() => page.getByTestId('connection-status').count(), POLL).toBe(0);
    await screenshot(page, 'connection-error-en-1440');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'connection-error-en-390');
    await e2e.setLanguage('zh');
    await page.getByText('检查后端服务是否已启动').waitFor();
    await expect
      .poll(() => error.locator('.ant-alert-description').textContent(), POLL)
      .toBe('网络错误：无法连接服务器');
    await screenshot(page, 'connection-error-zh-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'connection-error-zh-1440');
  });
});
