import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enHome from '../src/locales/en/home.json';
import zhHome from '../src/locales/zh/home.json';
import { PHONE, POLL, screenshot } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * Issue 25 item 7: "Try with sample photos" loads a sample that shows the whole product, in a real browser against
 * the real server and engine: generated root slices beside four real detached leaflets (CC BY 3.0, credited in the
 * sample folder's description), every photo with its genotype and rep, one task already run over them; the button
 * opens that task's results, "By group" has a group per genotype, and the toast links the right screens (the
 * folder on Images, the results). Pressing it again doubles nothing. English and Chinese, 1440 and 390 px.
 */
let e2e: E2e;
let page: Page;

interface Folder {
  id: number;
  name: string;
  description: string;
  imageCount: number;
}

const folders = async () => (await e2e.server.api('/api/folders/')).body.results as Folder[];
const sampleToast = () => page.getByTestId('sample-toast');

async function pressDemo(): Promise<void> {
  await e2e.goto('home');
  await page.getByTestId('slide-prediction').first().getByTestId('hero-demo').click();
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

describe('the sample set (issue 25 item 7)', () => {
  it('loads slices and real leaves with genotype and rep, runs one task and opens its results', async () => {
    await pressDemo();
    // The button says what it is doing, then the task's results open.
    await page.locator('[data-section="results"]').waitFor({ timeout: 240_000 });
    await sampleToast().waitFor();
    const folder = (await folders()).find((f) => f.name === enHome.sample.folder)!;
    expect(folder.imageCount).toBe(10);
    // The leaf photos' source is credited where they are shown.
    expect(folder.description).toContain('Mobile Crop Surveillance project, Makerere University, CC BY 3.0');

    const images = (await e2e.server.api(`/api/images/?folder=${folder.id}&page_size=100`)).body.results as {
      id: number;
      name: string;
      metadata: Record<string, unknown>;
    }[];
    expect(images.filter((i) => i.name.endsWith('_leaf.jpg'))).toHaveLength(4);
    expect(images.filter((i) => i.name.endsWith('_slices.jpg'))).toHaveLength(6);
    for (const image of images) {
      const [genotype, rep] = image.name.split('_');
      expect(image.metadata).toMatchObject({ genotype, rep: Number(rep!.slice(1)) });
    }

    const tasks = (await e2e.server.api('/api/tasks/')).body.results as { id: number; name: string; status: string }[];
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ name: enHome.sample.task, status: 'completed' });
    const results = (await e2e.server.api(`/api/predictions/?task_id=${tasks[0]!.id}&page_size=100`)).body.results as {
      imageName: string;
      ppd_value: number | null;
      specimens: { kind: string }[];
    }[];
    expect(results).toHaveLength(10);
    // The real leaves are scored as leaves, the drawn photos as slices.
    for (const r of results) {
      expect(r.ppd_value, r.imageName).not.toBeNull();
      expect(r.specimens[0]!.kind).toBe(r.imageName.endsWith('_leaf.jpg') ? 'leaf' : 'root_slice');
    }

    // The Results screen shows that task, and By group has a group per genotype.
    await expect.poll(() => page.getByTestId('results-banner').textContent(), POLL).toContain(enHome.sample.task);
    await expect.poll(() => page.getByTestId('result-card').count(), POLL).toBe(10);
    await screenshot(page, 'issue25c-sample-results-en-1440', false);
    await page.getByTestId('results-view-groups').click();
    for (const genotype of ['TME419', 'NASE14', 'TMS30572'])
      await page.locator('.ant-table-row').filter({ hasText: genotype }).first().waitFor();
    await screenshot(page, 'issue25c-sample-groups-en-1440', false);
  });

  it('the toast links the folder on Images and the results', async () => {
    expect(await sampleToast().textContent()).toContain('10 sample photos (4 of them real leaves)');
    await page.getByTestId('sample-open-folder').click();
    await page.locator('[data-section="images"]').waitFor();
    const folder = (await folders()).find((f) => f.name === enHome.sample.folder)!;
    await expect
      .poll(() => page.locator('[data-testid="sidebar-entry"][aria-current="true"]').getAttribute('data-key'), POLL)
      .toBe(String(folder.id));
    await expect.poll(() => page.getByTestId('image-card').count(), POLL).toBe(10);
    await screenshot(page, 'issue25c-sample-folder-en-1440', false);
  });

  it('pressing it again, in Chinese, doubles nothing and links the same folder and task', async () => {
    await e2e.setLanguage('zh');
    await pressDemo();
    await page.locator('[data-section="results"]').waitFor({ timeout: 240_000 });
    await sampleToast().waitFor();
    const toastText = (await sampleToast().textContent()) ?? '';
    // In Chinese, naming the folder and task the English press made (names are the library's, not the UI's).
    expect(toastText).toContain('10 张示例照片（其中 4 张为真实叶片）已放入“Sample”');
    expect(toastText).toContain(zhHome.sample.open_results);
    expect(toastText).toContain(zhHome.sample.open_folder.replace('{{folder}}', enHome.sample.folder));
    await screenshot(page, 'issue25c-sample-results-zh-1440', false);
    const sample = (await folders()).filter((f) => f.name === zhHome.sample.folder || f.name === enHome.sample.folder);
    expect(sample.map((f) => [f.name, f.imageCount])).toEqual([[enHome.sample.folder, 10]]);
    const tasks = (await e2e.server.api('/api/tasks/')).body.results as { name: string }[];
    expect(tasks.map((t) => t.name)).toEqual([enHome.sample.task]);
    await page.getByTestId('results-view-groups').click();
    await page.locator('.ant-table-row').filter({ hasText: 'NASE14' }).first().waitFor();
    // Nothing in English but the task's own name (library data, not UI text).
    const results = (await page.locator('[data-section="results"]').textContent()) ?? '';
    expect(englishSentences(results).filter((x) => !enHome.sample.task.includes(x))).toEqual([]);
    await screenshot(page, 'issue25c-sample-groups-zh-1440', false);
  });

  it('fits a 390 px phone', async () => {
    await page.setViewportSize(PHONE);
    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') await e2e.setLanguage('en');
      await pressDemo();
      await page.locator('[data-section="results"]').waitFor({ timeout: 240_000 });
      await sampleToast().waitFor();
      await screenshot(page, `issue25c-sample-results-${lang}-390`, false);
    }
  });
});
