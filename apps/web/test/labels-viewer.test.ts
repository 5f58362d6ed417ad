import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeDialog, POLL, screenshotNow } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { pngBytes } from './helpers/test-files';

/**
 * Sign-in on (api.md: viewer reads labels, researcher writes them): a viewer opens a photo's labels from the
 * Images preview, sees them with the legend, zooms and pans, and cannot paint, save or delete.
 */
const ADMIN = { username: 'labels.admin', password: 'labels-admin-pw-1' };
const VIEWER = { username: 'zhou.viewer', password: 'zhou.viewer-pw-1' };

let e2e: E2e;
let imageId = 0;

async function session(username: string, password: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

beforeAll(async () => {
  e2e = await startE2e({ env: { AUTH: 'on', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  const cookie = await session(ADMIN.username, ADMIN.password);
  const user = await fetch(`${e2e.server.url}/api/users/`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ ...VIEWER, role: 'viewer' }),
  });
  expect(user.status).toBe(201);
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(pngBytes(3, 800, 600))], { type: 'image/png' }), 'viewer_leaf.png');
  const up = await fetch(`${e2e.server.url}/api/images/upload-files/`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  expect(up.status).toBe(201);
  imageId = ((await up.json()) as { uploaded: { id: number }[] }).uploaded[0]!.id;
  // Labels painted by a researcher (here the admin): the left half healthy, a lesion square, at a quarter size.
  const raw = Buffer.alloc(200 * 150);
  for (let y = 0; y < 150; y++) for (let x = 0; x < 100; x++) raw[y * 200 + x] = y > 60 && y < 90 && x > 40 ? 3 : 2;
  const png = await sharp(raw, { raw: { width: 200, height: 150, channels: 1 } })
    .png()
    .toBuffer();
  const labels = new FormData();
  labels.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'labels.png');
  const put = await fetch(`${e2e.server.url}/api/images/${imageId}/labels/`, {
    method: 'PUT',
    headers: { cookie },
    body: labels,
  });
  expect(put.status).toBe(200);
  await e2e.open();
}, 120_000);

afterAll(async () => {
  await e2e?.close();
});

describe('label painter for a viewer (e2e)', () => {
  it('shows the labels read-only: legend, zoom and pan, no painting, saving or deleting', async () => {
    const { page } = e2e;
    await page.getByTestId('sign-in-username').fill(VIEWER.username);
    await page.getByTestId('sign-in-password').fill(VIEWER.password);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('user-menu').waitFor();
    await e2e.goto('images');
    await page.locator('[data-testid="image-card"][data-image-name="viewer_leaf.png"] .image-card-thumb').click();
    await expect.poll(() => page.getByTestId('preview-paint-labels').textContent(), POLL).toBe('View labels');
    await page.getByTestId('preview-paint-labels').click();
    const painter = page.getByTestId('label-painter');
    await painter.getByTestId('label-readonly').waitFor();
    await expect
      .poll(async () => parseFloat((await painter.getByTestId('share-healthy').textContent()) ?? '0'), POLL)
      .toBeGreaterThan(40);
    await expect
      .poll(async () => parseFloat((await painter.getByTestId('share-lesion').textContent()) ?? '0'), POLL)
      .toBeGreaterThan(5);
    expect(await painter.getByTestId('save-labels').count()).toBe(0);
    expect(await painter.getByTestId('delete-labels').count()).toBe(0);
    expect(await painter.locator('.label-class[data-class="healthy"]').isDisabled()).toBe(true);
    expect(await painter.getByTestId('tool-eraser').isDisabled()).toBe(true);
    // A key for a class and a drag: the drag pans, nothing is painted.
    const fitted = await painter.getByTestId('label-zoom').textContent();
    await page.keyboard.press('+');
    await expect.poll(() => painter.getByTestId('label-zoom').textContent(), POLL).not.toBe(fitted);
    await page.keyboard.press('3');
    const box = (await painter.getByTestId('label-viewport').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3, { steps: 8 });
    await page.mouse.up();
    expect(await painter.getAttribute('data-unsaved')).toBe('false');
    await screenshotNow(page, 'labels-en-1440-viewer');
    await escapeDialog(page, painter);
  });
});
