import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, PHONE, DESKTOP, escapeDialog, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { toast } from './helpers/images-ui';
import { pngBytes } from './helpers/test-files';

/** The folders screen in a real browser: create, rename, the 409 message, and the delete wizard both ways. */
describe('folders screen (e2e)', () => {
  let e2e: E2e;
  const folderCard = (name: string) => e2e.page.locator(`[data-testid="folder-card"][data-folder-name="${name}"]`);

  async function seedImages(folderId: number, names: string[], seed: number) {
    const res = await e2e.server.upload(
      '/api/images/upload-files/',
      names.map((name, i) => ({ name, bytes: pngBytes(seed + i) })),
      { folder_id: String(folderId) },
    );
    expect(res.status).toBe(201);
  }

  beforeAll(async () => {
    e2e = await startE2e();
    await e2e.open();
    await e2e.goto('folders');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the empty state with a create tip, and zeroed statistics', async () => {
    const { page } = e2e;
    await page.getByText('No folders yet').waitFor();
    await page.getByText('Create a folder to organise your images by trial or field.').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="stat-folders"] .ant-statistic-content-value').textContent(), POLL)
      .toBe('0');
    await screenshot(page, 'folders-empty-en-1440');
  });

  it('creates a folder: the button stays disabled while the name is blank', async () => {
    const { page } = e2e;
    await page.getByTestId('create-folder').first().click();
    const ok = page.getByTestId('folder-form-ok');
    await expect.poll(() => ok.isDisabled(), POLL).toBe(true);
    await page.getByTestId('folder-name-input').fill('    ');
    await expect.poll(() => ok.isDisabled(), POLL).toBe(true);
    await page.getByTestId('folder-name-input').fill('Field trial 2026');
    await page.getByTestId('folder-description-input').fill('Plots 1-12, harvest week 3');
    await ok.click();
    await toast(page, 'Folder created');
    await folderCard('Field trial 2026').waitFor();
    await expect.poll(() => folderCard('Field trial 2026').innerText(), POLL).toContain('Plots 1-12, harvest week 3');
  });

  it('a duplicate name (any case) gets the 409 message and nothing is created', async () => {
    const { page } = e2e;
    await page.getByTestId('create-folder').first().click();
    await page.getByTestId('folder-name-input').fill('FIELD TRIAL 2026');
    await page.getByTestId('folder-form-ok').click();
    await toast(page, 'Folder name already exists, please choose another name');
    await expect
      .poll(() => page.locator('.ant-modal .ant-form-item-explain').innerText(), POLL)
      .toBe('Folder name already exists, please choose another name');
    await page.getByTestId('folder-name-input').fill('Greenhouse A');
    await page.getByTestId('folder-form-ok').click();
    await folderCard('Greenhouse A').waitFor();
    const list = await e2e.server.api('/api/folders/');
    expect(list.body.results.map((f: { name: string }) => f.name)).toEqual(['Field trial 2026', 'Greenhouse A']);
  });

  it('renames a folder, and renaming onto another name is refused', async () => {
    const { page } = e2e;
    await folderCard('Greenhouse A').getByTestId('folder-edit').click();
    const input = page.getByTestId('folder-name-input');
    await expect.poll(() => input.inputValue(), POLL).toBe('Greenhouse A');
    await input.fill('field trial 2026');
    await page.getByTestId('folder-form-ok').click();
    await toast(page, 'Folder name already exists, please choose another name');
    await input.fill('Greenhouse B');
    await page.getByTestId('folder-form-ok').click();
    await toast(page, 'Folder updated');
    await folderCard('Greenhouse B').waitFor();
    await expect.poll(() => folderCard('Greenhouse A').count(), POLL).toBe(0);
  });

  it('statistics count folders, categorised images and the rounded average', async () => {
    const { page } = e2e;
    const folders = (await e2e.server.api('/api/folders/')).body.results as { id: number; name: string }[];
    const field = folders.find((f) => f.name === 'Field trial 2026')!;
    const green = folders.find((f) => f.name === 'Greenhouse B')!;
    await seedImages(field.id, ['f1.png', 'f2.png', 'f3.png'], 100);
    await seedImages(green.id, ['g1.png', 'g2.png'], 200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="stat-images"] .ant-statistic-content-value')?.textContent === '5',
    );
    await expect
      .poll(() => page.locator('[data-testid="stat-folders"] .ant-statistic-content-value').textContent(), POLL)
      .toBe('2');
    // 5 / 2 = 2.5, rounded.
    await expect
      .poll(() => page.locator('[data-testid="stat-average"] .ant-statistic-content-value').textContent(), POLL)
      .toBe('3');
    await expect
      .poll(() => folderCard('Field trial 2026').getByTestId('folder-count').textContent(), POLL)
      .toBe('3 images');
    await screenshot(page, 'folders-en-1440');
  });

  it('clicking a folder card opens its images (issue 15 item 13)', async () => {
    const { page } = e2e;
    const field = ((await e2e.server.api('/api/folders/')).body.results as { id: number; name: string }[]).find(
      (f) => f.name === 'Field trial 2026',
    )!;
    await folderCard('Field trial 2026').locator('.folder-card-head').click();
    await page.locator('[data-section="images"]').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="sidebar-entry"][aria-current="true"]').getAttribute('data-key'), POLL)
      .toBe(String(field.id));
    await expect
      .poll(
        async () =>
          (
            await page
              .getByTestId('image-card')
              .evaluateAll((els) => els.map((el) => el.getAttribute('data-image-name')))
          ).sort(),
        POLL,
      )
      .toEqual(['f1.png', 'f2.png', 'f3.png']);
    // The edit button stays an edit button (it does not open the folder).
    await e2e.goto('folders');
    await folderCard('Field trial 2026').getByTestId('folder-edit').click();
    await page.getByTestId('folder-name-input').waitFor();
    expect(await page.locator('[data-section="folders"]').count()).toBe(1);
    await escapeDialog(page, page.getByTestId('folder-name-input'));
  });

  it('delete wizard, move: the images go to the chosen folder, then the folder is deleted', async () => {
    const { page } = e2e;
    await folderCard('Greenhouse B').getByTestId('folder-delete').click();
    const wizard = page.locator('.ant-modal').filter({ hasText: 'Delete folder "Greenhouse B"' });
    await wizard.waitFor();
    await expect.poll(() => wizard.innerText(), POLL).toContain('This folder holds 2 images');
    await wizard.getByTestId('wizard-next').click();
    await wizard.getByTestId('wizard-target').click();
    // Only the other folders are offered.
    await expect
      .poll(() => page.locator('.ant-select-dropdown .ant-select-item-option').allTextContents(), POLL)
      .toEqual(['Field trial 2026 (3)']);
    await page.locator('.ant-select-item-option').filter({ hasText: 'Field trial 2026' }).click();
    await wizard.getByTestId('wizard-confirm').click();
    await toast(page, 'Images moved and folder deleted');
    await folderCard('Greenhouse B').waitFor({ state: 'detached' });
    await page.waitForFunction(
      () =>
        document.querySelector('[data-folder-name="Field trial 2026"] [data-testid="folder-count"]')?.textContent ===
        '5 images',
    );
    expect((await e2e.server.api('/api/images/')).body.count).toBe(5);
  });

  it('delete wizard, move with no target: the images become uncategorised', async () => {
    const { page } = e2e;
    const created = await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Temp' } });
    await seedImages(created.body.id, ['t1.png'], 300);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await folderCard('Temp').getByTestId('folder-delete').click();
    const wizard = page.locator('.ant-modal').filter({ hasText: 'Delete folder "Temp"' });
    await expect.poll(() => wizard.innerText(), POLL).toContain('This folder holds 1 image. What should happen to it?');
    await wizard.getByTestId('wizard-next').click();
    await wizard.getByText('No folder chosen: the images will become uncategorised.').waitFor();
    await wizard.getByTestId('wizard-confirm').click();
    await folderCard('Temp').waitFor({ state: 'detached' });
    const images = await e2e.server.api('/api/images/?folder=none');
    expect(images.body.results.map((i: { name: string }) => i.name)).toEqual(['t1.png']);
  });

  it('delete wizard, delete: confirming deletes the images, then the folder', async () => {
    const { page } = e2e;
    await folderCard('Field trial 2026').getByTestId('folder-delete').click();
    const wizard = page.locator('.ant-modal').filter({ hasText: 'Delete folder "Field trial 2026"' });
    await wizard.getByTestId('choice-delete').click();
    await wizard.getByTestId('wizard-next').click();
    await wizard.getByText('This cannot be undone').waitFor();
    await expect.poll(() => wizard.innerText(), POLL).toContain('All 5 images in "Field trial 2026"');
    await screenshot(page, 'folders-delete-wizard-en-1440', false);
    await wizard.getByTestId('wizard-confirm').click();
    await toast(page, 'Folder deleted');
    await page.getByText('No folders yet').waitFor();
    const images = await e2e.server.api('/api/images/');
    expect(images.body.count).toBe(1);
  });

  it('an empty folder is deleted after a plain confirmation, without the move/delete wizard', async () => {
    const { page } = e2e;
    await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Empty plot' } });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await folderCard('Empty plot').getByTestId('folder-delete').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Delete folder "Empty plot"' });
    await expect
      .poll(() => dialog.getByTestId('folder-delete-empty').textContent(), POLL)
      .toBe('The folder "Empty plot" is empty. Delete it?');
    expect(await dialog.getByTestId('wizard-next').count()).toBe(0);
    await screenshot(page, 'folders-delete-empty-en-1440', false);
    await dialog.getByTestId('folder-delete-confirm').click();
    await toast(page, 'Folder deleted');
    await folderCard('Empty plot').waitFor({ state: 'detached' });
  });

  it('screenshots in Chinese and on a phone', async () => {
    const { page } = e2e;
    await e2e.server.api('/api/folders/', {
      method: 'POST',
      body: { name: '木薯 2026 田间试验', description: '一号试验田' },
    });
    await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Greenhouse C' } });
    await e2e.setLanguage('zh');
    await page.getByRole('button', { name: '刷新' }).click();
    await folderCard('木薯 2026 田间试验').waitFor();
    await expect.poll(() => page.locator('.folders-page h2').textContent(), POLL).toBe('文件夹管理');
    await screenshot(page, 'folders-zh-1440');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'folders-zh-390');
    await e2e.setLanguage('en');
    await page.getByText('Folder management').waitFor();
    await screenshot(page, 'folders-en-390');
    await page.setViewportSize(DESKTOP);
  });
});
