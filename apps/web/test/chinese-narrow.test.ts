import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import enHome from '../src/locales/en/home.json';
import zhHome from '../src/locales/zh/home.json';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { DESKTOP, escapeDialog, launchBrowser, PHONE, POLL, screenshot, type E2eBrowser } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';
import { WEB_DIR } from './helpers/paths';

/**
 * Chinese and narrow screens (issue 25 item 9), in a real browser against the real server: texts that were
 * untranslated or wrong (the sample folder's description, the add-box hint on a touch screen, 全部严重程度, the
 * default task name, two-character buttons spaced out by Ant Design, "Uncategorized" beside "Uncategorised"), and
 * at 390 px the carousel's dots, the add-box dialog's title and the Samples group table.
 */
let e2e: E2e;
let page: Page;
let touch: E2eBrowser | null = null;

const NAMES = ['TME419_1_7d_R1.jpg', 'TME419_2_7d_R2.jpg', 'TME693_1_7d_R1.jpg', 'TME693_2_7d_R2.jpg'];
/** A label of two Chinese characters with a space between them ("取 消"). */
const SPACED = /^[\u4e00-\u9fff] [\u4e00-\u9fff]$/;

/** Where an element is on screen. */
const box = async (p: Page, selector: string) => (await p.locator(selector).first().boundingBox())!;

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  // The sample folder as the app wrote it in English, and as it wrote it in Chinese.
  for (const [name, description] of [
    ['Sample', enHome.sample.description],
    ['示例', zhHome.sample.description],
  ]) {
    const res = await e2e.server.api('/api/folders/', { method: 'POST', body: { name, description } });
    expect(res.status).toBe(201);
  }
  const trial = (await e2e.server.api('/api/folders/', { method: 'POST', body: { name: 'Field trial' } })).body;
  const files = await Promise.all(
    NAMES.map(async (name, i) => ({ name, bytes: await makeSpecimenJpeg({ seed: 40 + i * 3 }) })),
  );
  const up = await e2e.server.upload('/api/images/upload-files/', files, { folder_id: String(trial.id) });
  expect(up.status).toBe(201);
  const ids = up.body.uploaded.map((i: { id: number }) => i.id);
  await e2e.server.api('/api/images/metadata/parse/', {
    method: 'POST',
    body: { pattern: '{genotype}_{rep}_{dah}d_{root}', image_ids: ids, apply: true },
  });
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Trial', image_ids: ids },
  });
  expect(task.status).toBe(201);
  const deadline = Date.now() + 120_000;
  while ((await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error('the task did not end');
    await new Promise((r) => setTimeout(r, 250));
  }
  await e2e.open();
});

// A test that failed half-way may have left a dialog open: each test starts without one, as a person would.
beforeEach(async () => {
  for (let i = 0; i < 3 && (await page.locator('.ant-modal-wrap:visible').count()) > 0; i++) {
    await page.keyboard.press('Escape');
    await page
      .locator('.ant-modal-wrap:visible')
      .first()
      .waitFor({ state: 'hidden', timeout: 5000 })
      .catch(() => {});
  }
});

afterAll(async () => {
  await touch?.close();
  await e2e?.close();
});

describe('Chinese and narrow screens', () => {
  it('spells Uncategorised the British way, as the rest of the app', async () => {
    const american: string[] = [];
    const dir = path.join(WEB_DIR, 'src/locales/en');
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/:\s*"([^"]*\buncategori[sz]ed\b[^"]*)"/gi)) {
        if (/uncategorized/i.test(m[1]!)) american.push(`${file}: ${m[1]}`);
      }
    }
    expect(american).toEqual([]);
    await e2e.goto('images');
    await expect
      .poll(
        () => page.locator('[data-testid="sidebar-entry"][data-key="none"] .images-sidebar-label').textContent(),
        POLL,
      )
      .toBe('Uncategorised');
    await e2e.goto('prediction');
    await expect
      .poll(() => page.locator('.prediction-folder').allInnerTexts(), POLL)
      .toContainEqual(expect.stringContaining('Uncategorised'));
  });

  it('names a new task after what it scores, in English and in Chinese', async () => {
    await e2e.goto('prediction');
    const name = page.locator('#prediction-task-name');
    await expect.poll(() => name.inputValue(), POLL).toMatch(/^Prediction \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await page.getByLabel('Select folder Field trial').check();
    await expect.poll(() => name.inputValue(), POLL).toMatch(/^Field trial \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await screenshot(page, 'task-name-en-1440', false);
    await e2e.setLanguage('zh');
    await expect.poll(() => name.inputValue(), POLL).toMatch(/^Field trial \d{4}-/);
    await page.getByLabel(/Field trial/).uncheck();
    await expect.poll(() => name.inputValue(), POLL).toMatch(/^预测任务 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await screenshot(page, 'task-name-zh-1440', false);
  });

  it('keeps two-character Chinese buttons whole (取消, not 取 消)', async () => {
    await e2e.setLanguage('zh');
    await e2e.goto('images');
    await page.getByTestId('upload-multiple').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('choose-files') });
    await dialog.waitFor();
    const labels = await dialog.locator('button').allInnerTexts();
    expect(labels).toContain('取消');
    expect(labels.filter((l) => SPACED.test(l.trim()))).toEqual([]);
    await escapeDialog(page, dialog);
    // Every button of the screen.
    const all = await page.locator('button').allInnerTexts();
    expect(all.filter((l) => SPACED.test(l.trim()))).toEqual([]);
  });

  it('says 全部严重程度 in the severity filter', async () => {
    await e2e.setLanguage('zh');
    await e2e.goto('results');
    await expect.poll(() => page.getByTestId('results-severity').innerText(), POLL).toBe('全部严重程度');
  });

  it("shows the sample folder's description in the screen's language", async () => {
    await e2e.setLanguage('zh');
    await e2e.goto('folders');
    const desc = (name: string) =>
      page
        .locator('[data-testid="folder-card"]')
        .filter({ has: page.locator('.folder-card-title strong').getByText(name, { exact: true }) })
        .locator('.folder-card-desc');
    await expect.poll(() => desc('Sample').textContent(), POLL).toBe(zhHome.sample.description);
    expect(await desc('示例').textContent()).toBe(zhHome.sample.description);
    expect(englishSentences(await page.locator('[data-section="folders"]').innerText())).toEqual([]);
    await screenshot(page, 'folders-sample-zh-1440', false);
    await e2e.setLanguage('en');
    await expect.poll(() => desc('示例').textContent(), POLL).toBe(enHome.sample.description);
    expect(await desc('Sample').textContent()).toBe(enHome.sample.description);
    await screenshot(page, 'folders-sample-en-1440', false);
  });

  it('keeps the carousel dots clear of the demo button on a phone', async () => {
    await page.setViewportSize(PHONE);
    await e2e.goto('home');
    for (const lang of ['en', 'zh'] as const) {
      await e2e.setLanguage(lang);
      await page.locator('.slick-active [data-testid="hero-demo"]').waitFor();
      const demo = await box(page, '.slick-active [data-testid="hero-demo"]');
      const dots = await box(page, '.home-hero .slick-dots');
      expect(dots.y).toBeGreaterThanOrEqual(demo.y + demo.height);
      await screenshot(page, `home-hero-${lang}-390`, false);
    }
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'home-hero-zh-1440', false);
    await e2e.setLanguage('en');
    await screenshot(page, 'home-hero-en-1440', false);
  });

  it('fits the Samples group table on a phone', async () => {
    await page.setViewportSize(PHONE);
    for (const lang of ['en', 'zh'] as const) {
      await e2e.setLanguage(lang);
      await e2e.goto('samples');
      await page.getByTestId('tab-groups').click();
      const table = page.getByTestId('groups-table');
      await expect.poll(() => table.locator('.groups-row').count(), POLL).toBe(2);
      // Nothing of the table reaches past the screen's edge or hides behind a sideways scroll.
      const overflow = await table.evaluate((el) => {
        const right = document.documentElement.clientWidth;
        const cut = [...el.querySelectorAll('th, td, [data-testid="group-card"] *')].filter(
          (c) => c.getBoundingClientRect().right > right + 0.5,
        );
        const scrollers = [...el.querySelectorAll('*')].filter((s) => s.scrollWidth > s.clientWidth + 1);
        return { cut: cut.length, scrollers: scrollers.length };
      });
      expect(overflow).toEqual({ cut: 0, scrollers: 0 });
      // Each group still says its n, mean and interval, SD and bands.
      const row = table.locator('.groups-row').filter({ hasText: 'TME419' });
      expect(await row.getByTestId('group-mean').isVisible()).toBe(true);
      expect(await row.getByTestId('group-sd').isVisible()).toBe(true);
      expect(await row.getByTestId('group-bands').isVisible()).toBe(true);
      await screenshot(page, `samples-groups-${lang}-390`);
    }
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'samples-groups-zh-1440');
    await e2e.setLanguage('en');
    await screenshot(page, 'samples-groups-en-1440');
  });

  it('the add-box dialog says to drag with the mouse, or with a finger on a touch screen; its title is clear of ×', async () => {
    await page.setViewportSize(DESKTOP);
    await e2e.setLanguage('en');
    // A mouse: the wide screen.
    await e2e.goto('results');
    await page.getByTestId('result-card').first().click();
    await page.getByTestId('review-add').click();
    await page.locator('.review-add-modal').waitFor();
    await expect
      .poll(() => page.getByTestId('review-add-hint').textContent(), POLL)
      .toMatch(/^Drag a box round the specimen on the photo with the mouse\./);
    await screenshot(page, 'review-add-en-1440', false);
    await escapeDialog(page, page.locator('.review-add-modal'));
    await escapeDialog(page, page.getByTestId('result-detail'));

    // A phone's touch screen.
    touch = await launchBrowser(PHONE, { touch: true });
    const tp = touch.page;
    for (const lang of ['en', 'zh'] as const) {
      await tp.goto(e2e.server.url + '/');
      await tp.evaluate((l) => localStorage.setItem('cassavascope.language', l), lang);
      await tp.reload();
      await tp.getByTestId('nav-toggle').click();
      await tp.getByTestId('drawer-nav').locator('[data-nav="results"]').click();
      await tp.getByTestId('result-card').first().click();
      await tp.getByTestId('review-add').click();
      const modal = tp.locator('.review-add-modal');
      await modal.waitFor();
      await expect
        .poll(() => tp.getByTestId('review-add-hint').textContent(), POLL)
        .toMatch(lang === 'en' ? /^Drag a finger across the photo/ : /^用手指在照片上拖动/);
      // The title ends before the close button starts.
      await tp.waitForFunction(() =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      );
      // The title's text (each of its lines) ends before the close button starts.
      const textRight = await modal.locator('.ant-modal-title').evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return Math.max(...[...range.getClientRects()].map((r) => r.right));
      });
      const close = (await modal.locator('.ant-modal-close').boundingBox())!;
      expect(textRight).toBeLessThanOrEqual(close.x);
      if (lang === 'zh') expect(englishSentences(await modal.innerText())).toEqual([]);
      await screenshot(tp, `review-add-${lang}-390`, false);
    }
  });
});
