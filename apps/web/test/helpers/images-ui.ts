import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { chooseSelectOption, POLL } from './browser';

/** Small page actions shared by the images e2e tests. */
export interface PickedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * Opens the upload settings for a mode and returns the dialog. On a phone one photo and a ZIP are in the Upload
 * button's menu (issue 25 item 6); its main button takes several photos. A person who sees no dialog after a
 * click clicks again, and so does this: in a clean clone a click right after a language switch landed on a toolbar
 * that was being drawn again, and the dialog never opened.
 */
export async function openUploadSettings(page: Page, mode: 'single' | 'multiple' | 'zip') {
  const phone = (page.viewportSize()?.width ?? 1440) < 768;
  const open = page.locator('.ant-modal').filter({ has: page.getByTestId('choose-files'), visible: true });
  const tryOpen = async () => {
    if (phone && mode !== 'multiple') {
      await page.getByTestId('upload-menu').click({ timeout: 2000 });
      await page
        .locator('.ant-dropdown:not(.ant-dropdown-hidden)')
        .getByTestId(`upload-${mode}`)
        .click({ timeout: 2000 });
    } else {
      await page.getByTestId(`upload-${mode}`).click({ timeout: 2000 });
    }
  };
  // The settings of the last upload close as its files are picked: that dialog is not the one this opens.
  await expect.poll(() => open.count(), POLL).toBe(0);
  await expect
    .poll(async () => {
      if ((await open.count()) > 0) return true;
      await tryOpen().catch(() => undefined);
      await open
        .first()
        .waitFor({ timeout: 2000 })
        .catch(() => undefined);
      return (await open.count()) > 0;
    }, POLL)
    .toBe(true);
  return open;
}

/** Opens the upload settings for a mode, optionally picks a folder and the duplicate switch, then picks files. */
export async function uploadThroughUi(
  page: Page,
  mode: 'single' | 'multiple' | 'zip',
  files: PickedFile[],
  options: { folder?: string; checkDuplicate?: boolean } = {},
): Promise<void> {
  const dialog = await openUploadSettings(page, mode);
  if (options.folder) await chooseSelectOption(page, 'upload-folder-select', options.folder);
  if (options.checkDuplicate === false) await dialog.getByTestId('duplicate-switch').click();
  await dialog.getByTestId('upload-input').setInputFiles(files);
}

/** Waits for a toast with this exact text. */
export async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
}

/** Waits until the sidebar entry (all, none, or a folder name) shows this count; lists reload after changes. */
export async function expectSidebarCount(page: Page, entry: string, count: number): Promise<void> {
  await page.waitForFunction(
    ([entry, count]) =>
      [...document.querySelectorAll('[data-testid="sidebar-entry"]')].some(
        (e) =>
          (e.getAttribute('data-key') === entry ||
            e.querySelector('.images-sidebar-label')?.getAttribute('title') === entry) &&
          e.querySelector('.images-sidebar-count')?.textContent === count,
      ),
    [entry, String(count)] as const,
  );
}

export function card(page: Page, name: string) {
  return page.locator(`[data-testid="image-card"][data-image-name="${name}"]`);
}
