import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * Folder names in a real browser follow the server's order (GET /folders/: as people sort names, numbers by value,
 * Chinese by pinyin) on every screen that lists folders, also after a rename: no screen re-sorts them as text.
 */
describe('folder order on every screen (e2e)', () => {
  let e2e: E2e;
  const expected = ['Field trial 1', 'field trial 2', 'Field trial 10', 'Field trial 11', '稻田', '地块 3'];

  const cardNames = () =>
    e2e.page
      .locator('[data-testid="folder-card"]')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-folder-name')));
  const imagesSidebarNames = () =>
    e2e.page
      .locator('[data-testid="sidebar-entry"]:not([data-key="all"]):not([data-key="none"]) .images-sidebar-label')
      .allInnerTexts();
  const predictionSidebarNames = () =>
    e2e.page.locator('.prediction-folder-row .prediction-folder-name').allInnerTexts();

  beforeAll(async () => {
    e2e = await startE2e();
    for (const name of ['Field trial 10', '地块 3', 'field trial 2', 'Field trial 11', '稻田', 'Field trial 1']) {
      const res = await e2e.server.api('/api/folders/', { method: 'POST', body: { name } });
      expect(res.status).toBe(201);
    }
    await e2e.open();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('the Folders screen, the Images sidebar and the Prediction sidebar list them in the same natural order', async () => {
    await e2e.goto('folders');
    await expect.poll(cardNames, POLL).toEqual(expected);
    await e2e.goto('images');
    await expect.poll(imagesSidebarNames, POLL).toEqual(expected);
    await e2e.goto('prediction');
    await expect.poll(predictionSidebarNames, POLL).toEqual(expected);
  });

  it('a folder renamed on the Folders screen takes its new place', async () => {
    const { page } = e2e;
    await e2e.goto('folders');
    await page
      .locator('[data-testid="folder-card"][data-folder-name="Field trial 11"]')
      .getByTestId('folder-edit')
      .click();
    const input = page.getByTestId('folder-name-input');
    await expect.poll(() => input.inputValue(), POLL).toBe('Field trial 11');
    await input.fill('Field trial 3');
    await page.getByTestId('folder-form-ok').click();
    const renamed = ['Field trial 1', 'field trial 2', 'Field trial 3', 'Field trial 10', '稻田', '地块 3'];
    await expect.poll(cardNames, POLL).toEqual(renamed);
    await e2e.goto('prediction');
    await expect.poll(predictionSidebarNames, POLL).toEqual(renamed);
  });
});
