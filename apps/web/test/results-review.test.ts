import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enReview from '../src/locales/en/review.json';
import zhReview from '../src/locales/zh/review.json';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';

/**
 * The review flow of issue 12 in a real browser against the real server and engine: the "needs review" filter
 * with its count, clearing the results that need review with the keyboard (measured), setting a PPD with a
 * reason, returning to the engine's value, adding a missed specimen by drawing a box, the history, the
 * reviewed badge, the export with both values; in English and Chinese, wide and narrow.
 */
let e2e: E2e;
let page: Page;
let taskId = 0;
const PHOTOS = 8;
let flagged: { id: number; imageName: string }[] = [];

/**
 * The engine is confident on these generated photos; a person is asked to look at specimen 1 of each (and 2 of
 * every other one), as the engine does on a real photo it is unsure about.
 */
function flagForReview(dataDir: string, resultIds: number[]): void {
  const db = new SQLite(path.join(dataDir, 'cassavascope.db'));
  try {
    for (const [n, id] of resultIds.entries()) {
      const row = db.prepare('select specimens from results where id = ?').get(id) as { specimens: string };
      const specimens = JSON.parse(row.specimens) as {
        index: number;
        needs_review: boolean;
        confidence: number | null;
      }[];
      for (const s of specimens) {
        if (s.index === 1 || (s.index === 2 && n % 2 === 0)) {
          s.needs_review = true;
          s.confidence = 0.42;
        }
      }
      db.prepare('update results set specimens = ?, needs_review = 1 where id = ?').run(JSON.stringify(specimens), id);
    }
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const files = await Promise.all(
    Array.from({ length: PHOTOS }, async (_, i) => ({
      name: `plot_${i + 1}.jpg`,
      bytes: await makeSpecimenJpeg({ seed: 60 + i }),
    })),
  );
  const up = await e2e.server.upload('/api/images/upload-files/', files, { check_duplicate: '0' });
  expect(up.status).toBe(201);
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Review trial', image_ids: up.body.uploaded.map((i: { id: number }) => i.id) },
  });
  taskId = task.body.id;
  const deadline = Date.now() + 120_000;
  while ((await e2e.server.api(`/api/tasks/${taskId}/`)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error('the task did not end');
    await new Promise((r) => setTimeout(r, 200));
  }
  const results = (await e2e.server.api(`/api/predictions/?task_id=${taskId}&ordering=imageName`)).body.results as {
    id: number;
    imageName: string;
    error_code: string | null;
  }[];
  expect(results.every((r) => r.error_code === null)).toBe(true);
  flagged = results.slice(0, 6);
  flagForReview(
    e2e.server.dataDir,
    flagged.map((r) => r.id),
  );
  await e2e.open();
  await e2e.goto('results');
});

afterAll(async () => {
  await e2e?.close();
});

const detail = () => page.getByTestId('result-detail');
const title = () => page.locator('.result-detail-modal .ant-modal-title');
const card = (id: number) => page.locator(`[data-testid="result-card"][data-result-id="${id}"]`);
const api = async (id: number) => (await e2e.server.api(`/api/predictions/${id}/`)).body;

async function closeDetail(): Promise<void> {
  await escapeDialog(page, detail());
}

describe('reviewing results in the browser', () => {
  it('filters to the results that need review, with their count', async () => {
    const toggle = page.getByTestId('results-needs-review');
    await expect.poll(() => toggle.textContent(), POLL).toBe(`Needs review (${flagged.length})`);
    await toggle.click();
    await expect.poll(() => page.getByTestId('result-card').count(), POLL).toBe(flagged.length);
    await expect
      .poll(() => page.getByTestId('results-count').textContent(), POLL)
      .toContain(`${flagged.length} results`);
    await screenshot(page, 'review-filter-en-1440', false);
  });

  it('clears the results that need review with the keyboard (A accept, X exclude, N next): measured throughput', async () => {
    const cards = page.getByTestId('result-card');
    const order = await cards.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-result-id'))));
    await cards.first().click();
    await detail().waitFor();
    const specimensToReview = (await Promise.all(order.map(api))).reduce(
      (n, r) => n + r.specimens.filter((s: any) => s.needs_review).length,
      0,
    );
    const started = Date.now();
    // Each press acts on the specimen marked "next to review"; when none is left the next result opens by itself.
    for (const [i, id] of order.entries()) {
      await expect.poll(() => title().textContent(), POLL).toBe((await api(id)).imageName);
      await expect.poll(() => detail().locator('.specimen-review.is-target').count(), POLL).toBe(1);
      const left = (await api(id)).specimens.filter((s: any) => s.needs_review).length;
      // Pressed as fast as a reviewer types: keys wait their turn, none is dropped. Exclude the second flagged
      // specimen of a result with two, accept the rest.
      for (let k = 0; k < left; k++) await page.keyboard.press(k === 1 ? 'x' : 'a');
      await expect.poll(async () => (await api(id)).specimens.filter((s: any) => s.needs_review).length, POLL).toBe(0);
      if (i === order.length - 1) break;
    }
    const seconds = (Date.now() - started) / 1000;
    const perMinute = Math.round((specimensToReview / seconds) * 60);
    console.log(
      `review throughput: ${specimensToReview} specimens in ${seconds.toFixed(1)} s = ${perMinute} specimens/minute (keyboard, ${order.length} results)`,
    );
    expect(perMinute).toBeGreaterThan(25);
    for (const id of order) {
      const r = await api(id);
      expect(r.needs_review).toBe(false);
      expect(r.reviewed).toBe(true);
      expect(r.engine_ppd_value).not.toBeNull();
    }
    // Back and forth with the keys and the buttons.
    await page.keyboard.press('p');
    await expect.poll(() => title().textContent(), POLL).toBe((await api(order[order.length - 2]!)).imageName);
    await page.keyboard.press('n');
    await expect.poll(() => title().textContent(), POLL).toBe((await api(order[order.length - 1]!)).imageName);
    await expect
      .poll(() => detail().getByTestId('review-position').textContent(), POLL)
      .toBe(`${order.length} of ${order.length}`);
    await closeDetail();
    // Closing reloads the list: nothing needs review any more.
    await expect.poll(() => page.getByTestId('results-needs-review').textContent(), POLL).toBe('Needs review (0)');
    await page.getByTestId('results-needs-review').click();
    await expect.poll(() => page.getByTestId('result-card').count(), POLL).toBe(PHOTOS);
    await expect
      .poll(() => card(order[0]!).getByTestId('result-reviewed').textContent(), POLL)
      .toContain(enReview.card.reviewed);
    expect(
      await card(
        flagged.length < PHOTOS
          ? (await e2e.server.api(`/api/predictions/?task_id=${taskId}&reviewed=false`)).body.results[0].id
          : 0,
      )
        .getByTestId('result-reviewed')
        .count(),
    ).toBe(0);
  });

  it('sets a PPD with a reason, shows it beside the engine value, returns to the engine value; the history lists it all', async () => {
    const id = flagged[0]!.id;
    await card(id).click();
    await detail().waitFor();
    const before = await api(id);
    const first = detail().getByTestId('specimen-card').first();
    await first.getByTestId('review-set-ppd').click();
    const input = page.getByTestId('review-ppd-input');
    await input.fill('8.5');
    await page.getByTestId('review-ppd-note').fill('lesion hidden under the label');
    await page.getByTestId('review-ppd-save').click();
    await expect.poll(() => first.getByTestId('specimen-ppd').textContent(), POLL).toBe('PPD 8.50');
    await expect
      .poll(() => first.getByTestId('specimen-engine-value').textContent(), POLL)
      .toBe(`engine ${before.specimens[0].engine_ppd.toFixed(2)}`);
    expect(await first.locator('.specimen-flags').textContent()).toContain('Corrected');
    const after = await api(id);
    expect(after.specimens[0]).toMatchObject({ ppd: 8.5, corrected: true, engine_ppd: before.specimens[0].engine_ppd });
    await expect.poll(() => detail().getByTestId('detail-ppd').textContent(), POLL).toBe(after.ppd_value.toFixed(2));
    await screenshot(page, 'review-corrected-en-1440', false);

    await first.getByTestId('review-use-engine').click();
    await expect
      .poll(() => first.getByTestId('specimen-ppd').textContent(), POLL)
      .toBe(`PPD ${before.specimens[0].engine_ppd.toFixed(2)}`);
    expect(await first.getByTestId('specimen-engine-value').count()).toBe(0);

    await detail().getByTestId('review-history-button').click();
    const entries = page.getByTestId('review-history-entry');
    await expect
      .poll(() => entries.count(), POLL)
      .toBe((await e2e.server.api(`/api/predictions/${id}/history/`)).body.length);
    const texts = await entries.allTextContents();
    expect(
      texts.some(
        (t) =>
          t.includes('PPD set') &&
          t.includes('8.50') &&
          t.includes('lesion hidden under the label') &&
          t.includes('anonymous'),
      ),
    ).toBe(true);
    expect(texts.at(-1)).toContain(enReview.history.change.reset);
    await screenshot(page, 'review-history-en-1440', false);
    await escapeDialog(page, page.getByTestId('review-history'));
    await closeDetail();
  });

  it('adds a missed specimen by drawing a box on the original, scored by the reviewer', async () => {
    const id = flagged[1]!.id;
    await card(id).click();
    await detail().waitFor();
    const before = await api(id);
    // Click once the detail has settled (its photos loaded, a specimen card each), as a person would: a photo
    // arriving late moves the buttons below it, and a click aimed before the move lands beside the button.
    await expect
      .poll(
        () =>
          detail()
            .locator('img')
            .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)),
        POLL,
      )
      .toBe(true);
    await expect.poll(() => detail().getByTestId('specimen-card').count(), POLL).toBe(before.specimens.length);
    await detail().getByTestId('review-add').click();
    await page.locator('.review-add-modal').waitFor();
    const draw = page.getByTestId('review-draw');
    await expect
      .poll(() => draw.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), POLL)
      .toBe(true);
    // The modal zooms in: measure once its animations have finished and two reads a frame apart agree. Only
    // animations that end are awaited: a loading spinner in the modal repeats for ever, and waiting on it hung
    // the test until its timeout whenever the machine was slow enough for one to be showing.
    await draw.evaluate((el) =>
      Promise.all(
        (el.closest('.ant-modal-wrap') ?? el)
          .getAnimations({ subtree: true })
          .filter((a) => Number.isFinite(a.effect?.getTiming().iterations ?? 1))
          .map((a) => a.finished),
      ),
    );
    let box = (await draw.boundingBox())!;
    await expect
      .poll(async () => {
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const now = (await draw.boundingBox())!;
        const same = Math.abs(now.x - box.x) + Math.abs(now.y - box.y) + Math.abs(now.width - box.width) < 0.5;
        box = now;
        return same;
      }, POLL)
      .toBe(true);
    await page.mouse.move(box.x + 4, box.y + 4);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.12, box.y + box.height * 0.15, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('review-add-box').textContent(), POLL).toMatch(/^Box: \d+ × \d+ px at/);
    const shown = /^Box: (\d+) × (\d+) px at \((\d+), (\d+)\)/
      .exec((await page.getByTestId('review-add-box').textContent())!)!
      .slice(1)
      .map(Number);
    await page.getByTestId('review-add-ppd').fill('6.25');
    await page.getByTestId('review-add-note').fill('a slice the engine missed');
    await screenshot(page, 'review-add-en-1440', false);
    await page.getByTestId('review-add-save').click();
    const cards = detail().getByTestId('specimen-card');
    await expect.poll(() => cards.count(), POLL).toBe(before.specimens.length + 1);
    const added = cards.last();
    expect(await added.getByTestId('specimen-ppd').textContent()).toBe('PPD 6.25');
    expect(await added.locator('.specimen-flags').textContent()).toContain('Added');
    const after = await api(id);
    const s = after.specimens.at(-1);
    expect(s).toMatchObject({ index: before.specimens.length + 1, source: 'reviewer', ppd: 6.25, engine_ppd: null });
    // The box saved is the one the screen showed, drawn in the photo's top-left part.
    expect(s.box).toEqual([shown[2], shown[3], shown[0], shown[1]]);
    expect(s.box[0]).toBeLessThan(480 * 0.1);
    expect(s.box[2]).toBeGreaterThanOrEqual(8);
    const history = (await e2e.server.api(`/api/predictions/${id}/history/`)).body;
    expect(history.at(-1)).toMatchObject({ change: 'added', note: 'a slice the engine missed', user: null });
    await closeDetail();
  });

  it('exports a CSV with both the engine and the reviewed values', async () => {
    const res = await fetch(`${e2e.server.url}/api/predictions/export/?task_id=${taskId}&format=specimens`);
    const [header, ...rows] = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe(
      'image_name,task_id,index,kind,ppd,engine_ppd,confidence,excluded,corrected,needs_review,box,note,image_id,band',
    );
    expect(rows.some((r) => r.includes(',true,'))).toBe(true);
    const results = await (
      await fetch(`${e2e.server.url}/api/predictions/export/?task_id=${taskId}&reviewed=true`)
    ).text();
    expect(results.split('\r\n')[0]).toContain('engine_ppd_value,reviewed,specimen_count');
  });

  it('reads in Chinese, and works on a 390 px phone', async () => {
    await e2e.setLanguage('zh');
    await expect
      .poll(() => page.getByTestId('results-needs-review').textContent(), POLL)
      .toBe(`${zhReview.filter.needs_review}（0）`);
    const id = flagged[1]!.id;
    await expect
      .poll(() => card(id).getByTestId('result-reviewed').textContent(), POLL)
      .toContain(zhReview.card.reviewed);
    await card(id).click();
    await detail().waitFor();
    const first = detail().getByTestId('specimen-card').first();
    await expect.poll(() => first.getByTestId('review-set-ppd').textContent(), POLL).toBe(zhReview.actions.set_ppd);
    expect(await detail().getByTestId('review-add').textContent()).toBe(zhReview.tools.add);
    expect(englishSentences(await detail().innerText())).toEqual([]);
    await detail().getByTestId('review-history-button').click();
    await expect.poll(() => page.getByTestId('review-history-entry').count(), POLL).toBeGreaterThan(0);
    const history = await page.getByTestId('review-history').innerText();
    expect(history).toContain(zhReview.history.change.added);
    expect(history).toContain(zhReview.history.anonymous);
    expect(englishSentences(history.replace('a slice the engine missed', ''))).toEqual([]);
    await screenshot(page, 'review-history-zh-1440', false);
    await escapeDialog(page, page.getByTestId('review-history'));
    await screenshot(page, 'review-detail-zh-1440', false);
    await closeDetail();

    await page.setViewportSize(PHONE);
    await card(id).click();
    await detail().waitFor();
    const overflow = await page
      .locator('.result-detail-modal .ant-modal-body')
      .evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const buttons = await detail()
      .getByTestId('specimen-review')
      .first()
      .locator('button')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right));
    for (const right of buttons) expect(right).toBeLessThanOrEqual(PHONE.width);
    // One tap excludes on a phone too.
    const cards = detail().getByTestId('specimen-card');
    await cards.nth(1).getByTestId('review-exclude').click();
    await expect.poll(async () => (await api(id)).specimens[1].excluded, POLL).toBe(true);
    await expect.poll(() => cards.nth(1).getByTestId('review-include').count(), POLL).toBe(1);
    await screenshot(page, 'review-detail-zh-390', false);
    await closeDetail();
    // The filter bar with its review filter fits a phone too.
    await expect.poll(() => page.getByTestId('results-needs-review').isVisible(), POLL).toBe(true);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wide).toBeLessThanOrEqual(0);
    const right = (await page.getByTestId('results-needs-review').boundingBox())!;
    expect(right.x + right.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'review-filter-zh-390', false);
  });
});
