import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, escapeDialog, PHONE, POLL } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { toast } from './helpers/images-ui';

/**
 * Sign-in and roles in a real browser against a real server with sign-in on (issue 14): the sign-in page in both
 * languages, working as a researcher, a session that ends mid-form (the form stays, the change goes through after
 * signing in again), a viewer's disabled controls with their reason, and an admin managing users.
 */
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const SHOTS = path.join(os.tmpdir(), 'cassava-sign-in-shots');

describe('sign-in and roles (e2e)', () => {
  let e2e: E2e;

  /** A session of the API itself (for seeding users): the Cookie header value. */
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
  async function shot(name: string) {
    await fs.mkdir(SHOTS, { recursive: true });
    await e2e.page.waitForTimeout(500);
    await e2e.page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }
  async function signInThroughPage(username: string, password: string) {
    const { page } = e2e;
    await page.getByTestId('sign-in-form').waitFor();
    await page.getByTestId('sign-in-username').fill(username);
    await page.getByTestId('sign-in-password').fill(password);
    await page.getByTestId('sign-in-submit').click();
  }

  beforeAll(async () => {
    e2e = await startE2e({ env: { AUTH: 'on', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
    const admin = await apiSession(ADMIN.username, ADMIN.password);
    for (const [username, role] of [
      ['wang.researcher', 'researcher'],
      ['li.viewer', 'viewer'],
    ]) {
      expect(
        (
          await apiJson('/api/users/', admin, {
            method: 'POST',
            body: { username, password: `${username}-pw-1`, role },
          })
        ).status,
      ).toBe(201);
    }
    await e2e.open();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the sign-in page first, in English and Chinese, and refuses a wrong password', async () => {
    const { page } = e2e;
    await page.getByText('This server is shared: sign in with the account your administrator gave you.').waitFor();
    await shot('sign-in-en-1440');
    await signInThroughPage('wang.researcher', 'not-the-password');
    await expect.poll(() => page.getByTestId('sign-in-error').innerText(), POLL).toBe('Wrong user name or password');
    await e2e.setLanguage('zh');
    await page.getByText('此服务器为多人共用：请使用管理员为您分配的账号登录。').waitFor();
    await page.getByTestId('sign-in-submit').click();
    await expect.poll(() => page.getByTestId('sign-in-error').innerText(), POLL).toBe('用户名或密码错误');
    await shot('sign-in-zh-1440');
    await page.setViewportSize(PHONE);
    await shot('sign-in-zh-390');
    await e2e.setLanguage('en');
    await shot('sign-in-en-390');
    await page.setViewportSize(DESKTOP);
  });

  it('works as a researcher; a session that ends mid-form keeps what was typed and saves after signing in again', async () => {
    const { page } = e2e;
    await signInThroughPage('wang.researcher', 'wang.researcher-pw-1');
    await page.getByTestId('user-menu').waitFor();
    await expect.poll(() => page.getByTestId('user-menu').innerText(), POLL).toBe('wang.researcher');
    await e2e.goto('folders');
    await page.getByTestId('create-folder').first().click();
    await page.getByTestId('folder-name-input').fill('Plot 7 harvest');
    await page.getByTestId('folder-description-input').fill('typed before the session ended');

    // The session ends on the server (as when it expires) while the form is open.
    const cookie = (await e2e.browser.context.cookies()).find((c) => c.name === 'cassavascope_session')!;
    const out = await fetch(`${e2e.server.url}/api/auth/logout/`, {
      method: 'POST',
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(out.status).toBe(204);

    await page.getByTestId('folder-form-ok').click();
    const modal = page.locator('.sign-in-modal .ant-modal');
    await modal.getByText('Your session has ended').waitFor();
    await shot('session-ended-en-1440');
    // The form under the sign-in dialog still holds what was typed.
    expect(await page.getByTestId('folder-name-input').inputValue()).toBe('Plot 7 harvest');
    await modal.getByTestId('sign-in-username').fill('wang.researcher');
    await modal.getByTestId('sign-in-password').fill('wang.researcher-pw-1');
    await modal.getByTestId('sign-in-submit').click();
    await toast(page, 'Folder created');
    await page.locator('[data-testid="folder-card"][data-folder-name="Plot 7 harvest"]').waitFor();
    await expect.poll(() => page.locator('.sign-in-modal .ant-modal').count(), POLL).toBe(0);
    const admin = await apiSession(ADMIN.username, ADMIN.password);
    const folders = await apiJson('/api/folders/', admin);
    expect(folders.body.results.map((f: { name: string; description: string }) => [f.name, f.description])).toEqual([
      ['Plot 7 harvest', 'typed before the session ended'],
    ]);
    const audit = await apiJson('/api/auth/me/', admin);
    expect(audit.body.user.role).toBe('admin');
    await e2e.signOut();
  });

  it('refuses a viewer: the controls that change things are disabled with the reason, in both languages', async () => {
    const { page } = e2e;
    await signInThroughPage('li.viewer', 'li.viewer-pw-1');
    await page.getByTestId('user-menu').waitFor();
    await e2e.goto('folders');
    const create = page.getByTestId('create-folder').first();
    await expect.poll(() => create.isDisabled(), POLL).toBe(true);
    await create.hover({ force: true });
    await page.locator('.ant-tooltip').filter({ hasText: 'Needs the researcher role' }).first().waitFor();
    await expect
      .poll(() => page.locator('[data-testid="folder-card"] [data-testid="folder-delete"]').first().isDisabled(), POLL)
      .toBe(true);
    await shot('viewer-folders-en-1440');
    await e2e.goto('images');
    await expect.poll(() => page.getByTestId('upload-single').isDisabled(), POLL).toBe(true);
    // Loading the sample set uploads photos: a viewer is not offered it.
    await e2e.goto('home');
    await page.locator('.home-slide-primary').first().waitFor();
    expect(await page.getByTestId('hero-demo').count()).toBe(0);
    // The menu has no users page for a viewer.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-sign-out').waitFor();
    expect(await page.getByTestId('menu-users').count()).toBe(0);
    await escapeDialog(page, page.getByTestId('menu-sign-out'));
    await e2e.setLanguage('zh');
    await e2e.goto('folders');
    await page.getByTestId('create-folder').first().hover({ force: true });
    await page.locator('.ant-tooltip').filter({ hasText: '需要研究员角色' }).first().waitFor();
    await shot('viewer-folders-zh-1440');
    await page.setViewportSize(PHONE);
    await shot('viewer-folders-zh-390');
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
    // The server refuses it too, whatever the page shows.
    const viewer = await apiSession('li.viewer', 'li.viewer-pw-1');
    expect((await apiJson('/api/folders/', viewer, { method: 'POST', body: { name: 'x' } })).status).toBe(403);
    await e2e.signOut();
  });

  it('manages users as admin: add, change role, reset a password; the last admin stays', async () => {
    const { page } = e2e;
    await signInThroughPage(ADMIN.username, ADMIN.password);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-users').click();
    const panel = page.getByTestId('users-panel');
    await panel.locator('[data-user="li.viewer"]').waitFor();
    await shot('users-en-1440');

    await page.getByTestId('users-add').click();
    await page.getByTestId('new-username').fill('zhang.san');
    await page.getByTestId('new-password').fill('zhang-san-password');
    await page.locator('.users-add-modal .ant-btn-primary').click();
    await toast(page, 'zhang.san was added');
    await panel.locator('[data-user="zhang.san"]').waitFor();

    // Role: researcher (the form's default) -> viewer.
    await page.getByTestId('role-zhang.san').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: 'viewer' })
      .first()
      .click();
    await toast(page, 'zhang.san is now viewer');

    await page.getByTestId('reset-zhang.san').click();
    await page.getByTestId('reset-password').fill('a-brand-new-password');
    await page.locator('.users-reset-modal .ant-btn-primary').click();
    await toast(page, 'The password of zhang.san was changed; their other sessions have ended');

    // Demoting the only admin is refused with the reason.
    await page.getByTestId('role-admin').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: 'researcher' })
      .first()
      .click();
    await toast(page, 'The last admin cannot be removed or demoted: make another user admin first');

    const zhang = await apiSession('zhang.san', 'a-brand-new-password');
    expect((await apiJson('/api/auth/me/', zhang)).body.user).toMatchObject({ username: 'zhang.san', role: 'viewer' });
    const admin = await apiSession(ADMIN.username, ADMIN.password);
    expect((await apiJson('/api/auth/me/', admin)).body.user.role).toBe('admin');

    const openUsers = async () => {
      await page.getByTestId('user-menu').click();
      await page.getByTestId('menu-users').click();
      await panel.locator('[data-user="zhang.san"]').waitFor();
    };
    // The drawer covers the header: closed to switch language, then opened again.
    await page.locator('.ant-drawer-open .ant-drawer-close').click();
    await panel.waitFor({ state: 'detached' });
    await e2e.setLanguage('zh');
    await openUsers();
    await panel.getByText('可以登录的用户，以及各角色的权限。').waitFor();
    await shot('users-zh-1440');
    await page.setViewportSize(PHONE);
    await shot('users-zh-390');
    await page.locator('.ant-drawer-open .ant-drawer-close').click();
    await panel.waitFor({ state: 'detached' });
    await e2e.setLanguage('en');
    await openUsers();
    await shot('users-en-390');
    await page.setViewportSize(DESKTOP);
  });
});
