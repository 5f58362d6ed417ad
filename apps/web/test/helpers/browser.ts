import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { openContexts } from './open-browsers';
import { SCREENSHOT_DIR } from './paths';

/**
 * Debian's Chromium, headless, with the flags this machine needs: without the background-networking ones
 * Chromium keeps dialling Google hosts that the closed network refuses.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1440, height: 900 };

/**
 * Everything on the page changes asynchronously (React renders, queries, breakpoints): assertions poll until
 * they hold. 30 s is generous on purpose: a loaded CI machine can take seconds to settle a render.
 */
export const WAIT_MS = 30_000;
export const POLL = { timeout: WAIT_MS, interval: 100 };
export const PHONE = { width: 390, height: 844 };

export interface E2eBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * A fresh persistent profile in a temp dir (Playwright refuses --user-data-dir in args). `touch`: a touch screen
 * (the page's primary pointer is coarse, as on a phone).
 */
export async function launchBrowser(viewport = DESKTOP, options: { touch?: boolean } = {}): Promise<E2eBrowser> {
  const userDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cassava-chromium-'));
  const context = await chromium.launchPersistentContext(userDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    hasTouch: options.touch ?? false,
    // The app honours "reduce motion": dialogs and menus open at once, so no step races an opening animation (under
    // load, clicks on a dialog or menu still zooming in were lost now and then; each clean clone found another).
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(WAIT_MS);
  openContexts.add(context);
  return {
    context,
    page,
    async close() {
      openContexts.delete(context);
      await context.close();
      await fsp.rm(userDir, { recursive: true, force: true });
    },
  };
}

/**
 * Pictures are for people to look at. `E2E_SCREENSHOTS=0` skips taking them; the page still settles as it would for
 * a picture. `npm test` takes them: the steps after a picture were written, and proven, with the time the capture
 * takes (without it a Select opened right after a dialog closed, and a step of prediction-flow, failed now and then).
 */
export const SCREENSHOTS_ON = process.env.E2E_SCREENSHOTS !== '0';

/**
 * Pictures are JPEG at quality 90: a full page costs about half the CPU of a PNG (0.32 against 0.62 s, measured on
 * Home at 1440 px), and the suite takes a few hundred. Text stays sharp enough to read and check.
 */
const JPEG = { type: 'jpeg', quality: 90 } as const;

/** Where the picture `name` goes, the folder made; null when pictures are off (SCREENSHOTS_ON). */
async function pictureFile(name: string): Promise<string | null> {
  if (!SCREENSHOTS_ON) return null;
  await fsp.mkdir(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, `${name}.jpg`);
}

/**
 * Saves a full-page picture under apps/web/test/screenshots/ (git-ignored) once the page has settled, and returns
 * its path, or null when pictures are off (SCREENSHOTS_ON).
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string | null> {
  // Let fonts, lazy chunks and images settle before the picture.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Dialogs fade in: wait until CSS animations and transitions have finished. Endless ones (spinners, the
  // running progress bar's shimmer) never finish, so they are left out instead of costing the whole timeout.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => undefined);
  // A sticky header would otherwise be drawn where the page was scrolled to.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  const file = await pictureFile(name);
  if (file) await page.screenshot({ path: file, fullPage, animations: 'disabled', ...JPEG });
  return file;
}

/**
 * The window as it is this moment, with no settling first: for states that pass (rows still placeholders, a stroke
 * being painted). Same folder and switch as `screenshot`.
 */
export async function screenshotNow(page: Page, name: string, fullPage = false): Promise<string | null> {
  const file = await pictureFile(name);
  if (file) await page.screenshot({ path: file, fullPage, ...JPEG });
  return file;
}

/** A picture of one element (a block beside the full-page pictures), as it is this moment. */
export async function screenshotOf(locator: Locator, name: string): Promise<string | null> {
  const file = await pictureFile(name);
  if (file) await locator.screenshot({ path: file, animations: 'disabled', ...JPEG });
  return file;
}

/**
 * Picks `label` in the Ant Design Select whose trigger has `data-testid={testId}`, as a person does: opens the
 * menu, clicks the option, and looks that the Select now shows it; if not, opens it again and picks again. An open
 * menu can close under the click: a screen that finishes loading re-renders the Select (seen on a phone after a
 * dialog closed), and a Select opened while its dialog still zooms in loses the focus when the dialog takes it at
 * the animation's end (seen under load: the click landed on the closing menu and the upload went to no folder).
 */
export async function chooseSelectOption(page: Page, testId: string, label: string): Promise<void> {
  const select = page.getByTestId(testId);
  const option = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: label })
    .first();
  await expect
    .poll(async () => {
      if (((await select.textContent()) ?? '').includes(label)) return true;
      if (!(await option.isVisible())) await select.click();
      await option.click({ timeout: 2000 }).catch(() => undefined);
      return false;
    }, POLL)
    .toBe(true);
}

/**
 * Closes the dialog (modal, drawer, preview) that holds `inside` with the Escape key, as a person does: presses
 * Escape, watches the dialog react, and presses again only if it did not. A dialog hears the key only once it has
 * taken the focus, at the end of its opening animation; under load a key pressed as soon as its contents showed went
 * to the page (seen in a clean clone). A dialog already closing (its motion's "-leave" classes) is not pressed again:
 * a second key would close the dialog under it.
 */
export async function escapeDialog(page: Page, inside: Locator): Promise<void> {
  const closing = () => inside.evaluate((el) => el.closest('[class*="-leave"]') !== null).catch(() => false);
  await expect
    .poll(async () => {
      if (!(await inside.isVisible())) return false;
      if (await closing()) return true;
      await page.keyboard.press('Escape');
      // Two frames: the key's handler has run and the dialog has started its closing motion, if it heard the key.
      await page
        .evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
        .catch(() => undefined);
      return true;
    }, POLL)
    .toBe(false);
}
