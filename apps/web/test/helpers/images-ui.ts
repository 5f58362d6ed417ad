import type { Page } from 'playwright-core';
import { chooseSelectOption } from './browser';

/** Small page actions shared by the images e2e tests. */
export interface PickedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * Opens the upload settings for a mode and returns the dialog. On a phone one photo and a ZIP are in the Upload
 * button's menu (issue 25 item 6); its main button takes several photos.
 */
export async function openUploadSettings(page: Page, mode: 'single' | 'multiple' | 'zip') {
  const phone = (page.viewportSize()?.width ?? 1440) < 768;
  if (phone && mode !== 'multiple') {
    await page.getByTestId('upload-menu').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByTestId(`upload-${mode}`).click();
  } else {
    await page.getByTestId(`upload-${mode}`).click();
  }
  const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('choose-files') });
  await dialog.waitFor();
  return dialog;
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
