import type { Page } from 'playwright-core';

/** Small page actions shared by the images e2e tests. */
export interface PickedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Opens the upload settings for a mode, optionally picks a folder and the duplicate switch, then picks files. */
export async function uploadThroughUi(
  page: Page,
  mode: 'single' | 'multiple' | 'zip',
  files: PickedFile[],
  options: { folder?: string; checkDuplicate?: boolean } = {},
): Promise<void> {
  await page.getByTestId(`upload-${mode}`).click();
  const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('choose-files') });
  await dialog.waitFor();
  if (options.folder) {
    await dialog.getByTestId('upload-folder-select').click();
    await page.locator(`.ant-select-item-option[title="${options.folder}"]`).click();
  }
  if (options.checkDuplicate === false) await dialog.getByTestId('duplicate-switch').click();
  await dialog.getByTestId('upload-input').setInputFiles(files);
}

/** Waits for a toast with this exact text. */
export async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
}

export async function sidebarCount(page: Page, key: string): Promise<string> {
  return (await page.locator(`[data-testid="sidebar-entry"][data-key="${key}"] .images-sidebar-count`).textContent()) ?? '';
}

export async function sidebarFolderCount(page: Page, name: string): Promise<string> {
  const entry = page.locator('[data-testid="sidebar-entry"]').filter({ has: page.locator(`.images-sidebar-label[title="${name}"]`) });
  return (await entry.locator('.images-sidebar-count').textContent()) ?? '';
}

export function card(page: Page, name: string) {
  return page.locator(`[data-testid="image-card"][data-image-name="${name}"]`);
}
