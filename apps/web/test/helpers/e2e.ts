import type { Page } from 'playwright-core';
import { launchBrowser, DESKTOP, type E2eBrowser } from './browser';
import { startE2eServer, type E2eServer } from './e2e-server';

export interface E2e {
  server: E2eServer;
  browser: E2eBrowser;
  page: Page;
  /** Opens the app and waits for the shell. */
  open(): Promise<void>;
  /** Clicks a section in the navigation (top bar, or the toggle menu on narrow screens). */
  goto(section: string): Promise<void>;
  /** Picks a language in the language menu and waits until the page has switched. */
  setLanguage(lang: 'en' | 'zh'): Promise<void>;
  close(): Promise<void>;
}

/** One real server + one Chromium, for a test file (call in beforeAll, close in afterAll). */
export async function startE2e(options: { viewport?: { width: number; height: number } } = {}): Promise<E2e> {
  const server = await startE2eServer();
  let browser: E2eBrowser;
  try {
    browser = await launchBrowser(options.viewport ?? DESKTOP);
  } catch (err) {
    await server.close();
    throw err;
  }
  const page = browser.page;
  return {
    server,
    browser,
    page,
    async open() {
      await page.goto(server.url + '/');
      await page.locator('.app-header').waitFor();
    },
    async goto(section) {
      // The app collapses the navigation below Ant Design's lg breakpoint (992 px). Decide by the viewport:
      // reading the toggle's visibility right after setViewportSize races the re-render.
      if ((page.viewportSize()?.width ?? DESKTOP.width) < 992) {
        await page.getByTestId('nav-toggle').click();
        await page.getByTestId('drawer-nav').locator(`[data-nav="${section}"]`).click();
      } else {
        await page.getByTestId('main-nav').locator(`[data-nav="${section}"]`).click();
      }
      await page.locator(`[data-section="${section}"]`).waitFor();
    },
    async setLanguage(lang) {
      const name = lang === 'zh' ? '中文' : 'English';
      // The menu must be closed before (a click on the button would close an open one) and must close after.
      const openDropdown = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
      await openDropdown.waitFor({ state: 'detached' });
      await page.getByTestId('language-menu').click();
      const item = openDropdown.getByRole('menuitem', { name });
      await item.waitFor();
      await item.click();
      await page.waitForFunction((l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-CN' : 'en');
      await openDropdown.waitFor({ state: 'detached' });
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.close();
    },
  };
}
