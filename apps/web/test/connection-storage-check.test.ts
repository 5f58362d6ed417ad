import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { DESKTOP, PHONE, POLL, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * Issue 26, point 6: the Connection screen shows the last check of the stored files (when, what it found, its
 * problems) and lets an admin check now. A flipped byte in an original, a removed thumbnail and a stray file are
 * found and named, in English and Chinese.
 */
let e2e: E2e;
let page: Page;
let images: any[];

beforeAll(async () => {
  // No schedule (the button runs the checks), and no grace: the stray file is judged at once.
  e2e = await startE2e({ env: { STORAGE_CHECK_HOURS: '0', STORAGE_CHECK_GRACE_MINUTES: '0' } });
  page = e2e.page;
  const files = [
    { name: 'plot1.jpg', bytes: await makeSpecimenJpeg({ seed: 11 }) },
    { name: 'plot2.jpg', bytes: await makeSpecimenJpeg({ seed: 12 }) },
  ];
  expect((await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' })).status).toBe(201);
  images = (await e2e.server.api('/api/images/?ordering=name')).body.results;
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

const card = () => page.getByTestId('connection-storage-check');

async function testConnection() {
  await page.getByTestId('connection-start').click();
  await expect.poll(() => page.getByTestId('connection-test').getAttribute('data-state'), POLL).toBe('success');
}

it('shows the last check of the stored files and finds a corrupt original, a missing thumbnail and a stray file', async () => {
  await e2e.goto('connection');
  await testConnection();
  await expect.poll(() => card().getAttribute('data-state'), POLL).toBe('never');
  await expect.poll(() => card().textContent(), POLL).toContain('Not checked yet');
  await expect.poll(() => card().textContent(), POLL).toContain('Scheduled checks are off on this server');

  await page.getByTestId('storage-check-start').click();
  await expect.poll(() => card().getAttribute('data-state'), POLL).toBe('ok');
  await expect
    .poll(() => page.getByTestId('storage-check-state').textContent(), POLL)
    .toBe('All 4 stored files are intact');
  await expect.poll(() => page.getByTestId('storage-check-when').textContent(), POLL).toMatch(/^Last checked: /);

  // What a failing disk does: a bit of an original flipped, a thumbnail gone; and a file nobody recorded.
  const file = (url: string) => path.join(e2e.server.dataDir, 'blobs', ...url.replace(/^\/media\//, '').split('/'));
  const original = await fs.readFile(file(images[0].image_url));
  original[original.length >> 1]! ^= 0x04;
  await fs.writeFile(file(images[0].image_url), original);
  await fs.rm(file(images[1].thumbnail_url));
  const stray = crypto.randomBytes(32).toString('hex');
  const strayKey = `originals/${stray.slice(0, 2)}/${stray}.jpg`;
  await fs.mkdir(path.dirname(file(`/media/${strayKey}`)), { recursive: true });
  await fs.writeFile(file(`/media/${strayKey}`), 'not a photo');

  await page.getByTestId('storage-check-start').click();
  await expect.poll(() => card().getAttribute('data-state'), POLL).toBe('problems');
  await expect
    .poll(() => page.getByTestId('storage-check-state').textContent(), POLL)
    .toBe('Problems found in the stored files');
  await expect
    .poll(() => page.getByTestId('storage-check-counts').locator('.ant-tag').allTextContents(), POLL)
    .toEqual(['1 missing', '1 corrupt', '1 untracked']);
  const rows = page.getByTestId('storage-check-problem');
  await expect.poll(() => rows.count(), POLL).toBe(3);
  const row = (kind: string) => page.locator(`[data-testid="storage-check-problem"][data-kind="${kind}"]`);
  await expect.poll(() => row('corrupt').getAttribute('data-key'), POLL).toBe(images[0].image_url.slice(7));
  await expect
    .poll(() => row('corrupt').textContent(), POLL)
    .toContain(`Original of image ${images[0].id} · plot1.jpg`);
  await expect
    .poll(() => row('missing').textContent(), POLL)
    .toContain(`Thumbnail of image ${images[1].id} · plot2.jpg`);
  await expect.poll(() => row('untracked').textContent(), POLL).toContain('No record names this file');
  await expect.poll(() => row('untracked').textContent(), POLL).toContain(strayKey);
  await screenshot(page, 'connection-storage-check-en-1440');

  // The status the connection test reads says the same.
  const status = (await e2e.server.api('/api/status/')).body;
  expect(status.storage_check).toMatchObject({ missing: 1, corrupt: 1, untracked: 1, files: 4, running: false });
  await testConnection();
  await expect.poll(() => card().getAttribute('data-state'), POLL).toBe('problems');

  await e2e.setLanguage('zh');
  await expect
    .poll(() => page.getByTestId('storage-check-counts').locator('.ant-tag').allTextContents(), POLL)
    .toEqual(['缺失 1 个', '损坏 1 个', '未登记 1 个']);
  await expect.poll(() => page.getByTestId('storage-check-state').textContent(), POLL).toBe('存储文件存在问题');
  await expect.poll(() => row('corrupt').textContent(), POLL).toContain(`图像 ${images[0].id} 的原图 · plot1.jpg`);
  await expect.poll(() => row('untracked').textContent(), POLL).toContain('没有任何记录引用此文件');
  await expect.poll(() => page.getByTestId('storage-check-start').textContent(), POLL).toBe('立即检查');
  await screenshot(page, 'connection-storage-check-zh-1440');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'connection-storage-check-zh-390');
  await e2e.setLanguage('en');
  await page.getByText('Problems found in the stored files').waitFor();
  await screenshot(page, 'connection-storage-check-en-390');
  await page.setViewportSize(DESKTOP);
});
