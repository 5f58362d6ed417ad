import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, screenshotNow } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * Issue 23, roles: with sign-in on, a viewer opens the Models screen and sees it, but cannot train or import
 * (the buttons are disabled and their tooltip names the role it needs), in English and Chinese.
 */
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'zhao.viewer', password: 'zhao.viewer-pw-1' };

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e({ env: { AUTH: 'on', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  const login = await fetch(`${e2e.server.url}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const created = await fetch(`${e2e.server.url}/api/users/`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ ...VIEWER, role: 'viewer' }),
  });
  expect(created.status).toBe(201);
  await e2e.open();
  const { page } = e2e;
  await page.getByTestId('sign-in-form').waitFor();
  await page.getByTestId('sign-in-username').fill(VIEWER.username);
  await page.getByTestId('sign-in-password').fill(VIEWER.password);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('user-menu').waitFor();
}, 120_000);

afterAll(async () => {
  await e2e?.close();
});

describe.each([
  ['en', 'Needs the researcher role'],
  ['zh', '需要'],
] as const)('a viewer on the Models screen (%s)', (lang, reason) => {
  it('sees the screen but cannot train or import', async () => {
    const { page } = e2e;
    if (lang === 'zh') await e2e.setLanguage('zh');
    await e2e.goto('models');
    await page.locator('[data-testid="models-empty"], [data-testid="models-list"]').first().waitFor();
    for (const id of ['models-train', 'models-import']) {
      const button = page.getByTestId(id);
      await expect.poll(() => button.isDisabled(), POLL).toBe(true);
      // The disabled button's wrapper shows why on hover.
      await button.hover({ force: true });
      await expect
        .poll(() => page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').last().textContent(), POLL)
        .toContain(reason);
      await page.mouse.move(0, 0);
    }
    // Every model card's changing buttons are disabled too.
    for (const id of ['model-rename', 'model-delete', 'model-cancel']) {
      for (const button of await page.getByTestId(id).all()) expect(await button.isDisabled()).toBe(true);
    }
    await screenshotNow(page, `models-viewer-${lang}-1440`);
  });
});
