import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enResults from '../src/locales/en/results.json';
import zhResults from '../src/locales/zh/results.json';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { escapeDialog, PHONE, POLL, screenshot } from './helpers/browser';
import { englishSentences } from './helpers/english-sentences';
import { startE2e, type E2e } from './helpers/e2e';
import { REPO_DIR } from './helpers/paths';

/**
 * Issue 25 item 2, in a real browser against the real server and engine: the per-specimen export from the Export
 * button (one row per specimen: image id and name, task, index, kind, box, the engine's and the reviewed value,
 * excluded, the review note, band), and the result detail showing the numbered overview by default, numbered in
 * reading order, each box in its band's colour (an excluded one dashed grey), with a legend; English and Chinese,
 * 1440 and 390 px. The photo is a real tray of 15 CBSD slices (../shared/real-photos/roots).
 */
let e2e: E2e;
let page: Page;
let taskId = 0;
let trayResultId = 0;
const TRAY = path.resolve(REPO_DIR, '../shared/real-photos/roots/cbsd_tray_cassava1.jpg');
const BAND_COLOURS = { healthy: '#389e0d', mild: '#d4a106', severe: '#cf1322' } as const;
const bandOf = (ppd: number) => (ppd >= 7 ? 'severe' : ppd >= 4 ? 'mild' : 'healthy');

interface ApiSpecimen {
  index: number;
  kind: string;
  box: [number, number, number, number];
  ppd: number | null;
  engine_ppd: number | null;
  excluded: boolean;
}

async function waitForTask(id: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  while ((await e2e.server.api(`/api/tasks/${id}/`)).body.status === 'running') {
    if (Date.now() > deadline) throw new Error('the task did not end');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A minimal RFC 4180 reader. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return out;
}

/** Row-major reading order: each next box is right of the one before in the same row, or starts a lower row. */
function inReadingOrder(boxes: { x: number; y: number; w: number; h: number }[]): boolean {
  let rowTop = boxes[0]!;
  for (let i = 1; i < boxes.length; i++) {
    const b = boxes[i]!;
    const prev = boxes[i - 1]!;
    const centre = b.y + b.h / 2;
    if (centre <= rowTop.y + rowTop.h) {
      if (b.x + b.w / 2 <= prev.x + prev.w / 2) return false;
    } else {
      if (centre <= prev.y + prev.h / 2) return false;
      rowTop = b;
    }
  }
  return true;
}

const detail = () => page.getByTestId('result-detail');

async function exportSpecimens(shot?: string): Promise<string[][]> {
  await page.getByTestId('results-export').click();
  if (shot) {
    await page.getByTestId('export-per-specimen').waitFor();
    await screenshot(page, shot, false);
  }
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-per-specimen').click(),
  ]);
  const bytes = await fs.readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(bytes.subarray(3).toString('utf8'));
}

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  const up = await e2e.server.upload(
    '/api/images/upload-files/',
    [
      { name: 'cbsd_tray.jpg', bytes: await fs.readFile(TRAY) },
      { name: 'three_slices.jpg', bytes: await makeSpecimenJpeg({ seed: 12, width: 720, height: 480 }) },
    ],
    { check_duplicate: '0' },
  );
  expect(up.status).toBe(201);
  const task = await e2e.server.api('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Numbered tray', image_ids: up.body.uploaded.map((i: { id: number }) => i.id) },
  });
  taskId = task.body.id;
  await waitForTask(taskId);
  const results = (await e2e.server.api(`/api/predictions/?task_id=${taskId}`)).body.results as {
    id: number;
    imageName: string;
    specimens: ApiSpecimen[];
  }[];
  const tray = results.find((r) => r.imageName === 'cbsd_tray.jpg')!;
  expect(tray.specimens.length).toBeGreaterThanOrEqual(10);
  trayResultId = tray.id;
  // A reviewer excluded slice 2 and corrected slice 3, each with a note.
  const patch = (index: number, body: unknown) =>
    e2e.server.api(`/api/predictions/${trayResultId}/specimens/${index}/`, { method: 'PATCH', body });
  expect((await patch(2, { excluded: true, note: 'a shadow, not a slice' })).status).toBe(200);
  expect((await patch(3, { ppd: 8.5, note: 'necrosis under the label' })).status).toBe(200);
  await e2e.open();
  await e2e.goto('results');
  await page.locator(`[data-testid="results-task"][data-task-id="${taskId}"]`).click();
  await page.locator('[data-testid="result-card"]').nth(1).waitFor();
});

afterAll(async () => {
  await e2e?.close();
});

describe('per-specimen results (issue 25 item 2)', () => {
  it('exports one row per specimen from the Export button, an excluded one with its index and note', async () => {
    const rows = await exportSpecimens('issue25c-results-export-menu-en-1440');
    const [header, ...data] = rows;
    expect(header!.slice(0, 14)).toEqual([
      'image_name',
      'task_id',
      'index',
      'kind',
      'ppd',
      'engine_ppd',
      'confidence',
      'excluded',
      'corrected',
      'needs_review',
      'box',
      'note',
      'image_id',
      'band',
    ]);
    const col = (name: string) => header!.indexOf(name);
    const api = (await e2e.server.api(`/api/predictions/?task_id=${taskId}`)).body.results as {
      id: number;
      image_id: number;
      imageName: string;
      specimens: ApiSpecimen[];
    }[];
    expect(data).toHaveLength(api.reduce((n, r) => n + r.specimens.length, 0));
    const tray = api.find((r) => r.id === trayResultId)!;
    const trayRows = data.filter((r) => r[0] === 'cbsd_tray.jpg');
    expect(trayRows.map((r) => Number(r[col('index')]))).toEqual(tray.specimens.map((s) => s.index));
    for (const s of tray.specimens) {
      const row = trayRows.find((r) => Number(r[col('index')]) === s.index)!;
      expect(row[col('box')]).toBe(s.box.join(' '));
      expect(row[col('image_id')]).toBe(String(tray.image_id));
      expect(row[col('band')]).toBe(bandOf(s.ppd!));
    }
    const excluded = trayRows.find((r) => r[col('index')] === '2')!;
    expect(excluded[col('excluded')]).toBe('true');
    expect(excluded[col('note')]).toBe('a shadow, not a slice');
    const corrected = trayRows.find((r) => r[col('index')] === '3')!;
    expect(corrected[col('ppd')]).toBe('8.5');
    expect(corrected[col('engine_ppd')]).toBe(String(tray.specimens[2]!.engine_ppd));
    expect(corrected[col('note')]).toBe('necrosis under the label');
    expect(corrected[col('band')]).toBe('severe');
    // The per-image file is still the default entry, unchanged.
    await page.getByTestId('results-export').click();
    const [perImage] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-per-image').click()]);
    const imageRows = parseCsv((await fs.readFile(await perImage.path())).subarray(3).toString('utf8'));
    expect(imageRows[0]!.slice(0, 8).join(',')).toBe(
      'image_name,ppd_value,confidence,prediction,processing_time,sub_ppd_values,task_id,error_code',
    );
    expect(imageRows).toHaveLength(3);
  });

  it('opens the detail on the numbered overview: reading order, boxes in band colours, a legend', async () => {
    await page.locator(`[data-testid="result-card"][data-result-id="${trayResultId}"]`).click();
    await detail().waitFor();
    const overview = detail().getByTestId('detail-numbered');
    await overview.waitFor();
    const api = (await e2e.server.api(`/api/predictions/${trayResultId}/`)).body as { specimens: ApiSpecimen[] };
    const boxes = overview.getByTestId('overview-box');
    await expect.poll(() => boxes.count(), POLL).toBe(api.specimens.length);
    const drawn = await boxes.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return {
          index: Number(el.getAttribute('data-index')),
          band: el.getAttribute('data-band'),
          colour: el.getAttribute('data-colour'),
          border: getComputedStyle(el).borderTopColor,
          style: getComputedStyle(el).borderTopStyle,
          label: el.textContent,
          x: r.x,
          y: r.y,
          w: r.width,
          h: r.height,
        };
      }),
    );
    drawn.sort((a, b) => a.index - b.index);
    expect(drawn.map((d) => d.index)).toEqual(api.specimens.map((s) => s.index));
    // Numbered as a person reads: rows from the top, each from left to right.
    expect(inReadingOrder(drawn)).toBe(true);
    for (const s of api.specimens) {
      const d = drawn.find((b) => b.index === s.index)!;
      if (s.excluded) {
        expect(d.band).toBe('excluded');
        expect(d.style).toBe('dashed');
      } else {
        expect(d.band).toBe(bandOf(s.ppd!));
        expect(d.colour).toBe(BAND_COLOURS[bandOf(s.ppd!)]);
        expect(d.label).toBe(`${s.index}: ${s.ppd!.toFixed(2)}`);
      }
    }
    // The reviewer's 8.5 on slice 3 is red, whatever the engine said.
    expect(drawn.find((d) => d.index === 3)!.colour).toBe(BAND_COLOURS.severe);
    const legend = detail().getByTestId('overview-legend');
    await expect.poll(() => legend.textContent(), POLL).toContain(enResults.detail.legend.severe);
    expect(await legend.textContent()).toContain(enResults.detail.legend.order);
    // The plain original is one click away, and back.
    await detail().getByTestId('detail-layer').getByText(enResults.detail.original).click();
    await expect.poll(() => detail().getByTestId('detail-numbered').count(), POLL).toBe(0);
    await detail().getByTestId('detail-layer').getByText(enResults.detail.numbered).click();
    await overview.waitFor();
    // A box picks its specimen for the keys: its card says so.
    await boxes.filter({ has: page.locator('text=/^5: /') }).click();
    await expect
      .poll(
        () => detail().locator('[data-testid="specimen-card"][data-index="5"] [data-testid="review-target"]').count(),
        POLL,
      )
      .toBe(1);
    await page.locator('.ant-modal-wrap').evaluate((el) => el.scrollTo(0, 0));
    await screenshot(page, 'issue25c-results-numbered-en-1440', false);
    await escapeDialog(page, detail());
  });

  it('reads in Chinese: the Export menu, the legend; nothing in English', async () => {
    await e2e.setLanguage('zh');
    await page.getByTestId('results-export').click();
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
    await expect.poll(() => menu.textContent(), POLL).toContain(zhResults.export.per_specimen);
    expect(await menu.textContent()).toContain(zhResults.export.per_image);
    await screenshot(page, 'issue25c-results-export-menu-zh-1440', false);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-per-specimen').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^prediction_results_\d+_\d{4}-\d\d-\d\d\.csv$/);
    await page.locator('.ant-message-notice').filter({ hasText: zhResults.export.success_specimens }).waitFor();
    await page.locator(`[data-testid="result-card"][data-result-id="${trayResultId}"]`).click();
    await detail().getByTestId('detail-numbered').waitFor();
    const legend = detail().getByTestId('overview-legend');
    await expect.poll(() => legend.textContent(), POLL).toContain(zhResults.detail.legend.healthy);
    expect(await legend.textContent()).toContain(zhResults.detail.legend.order);
    expect(englishSentences((await detail().textContent()) ?? '')).toEqual([]);
    await screenshot(page, 'issue25c-results-numbered-zh-1440', false);
    await escapeDialog(page, detail());
  });

  it('fits a 390 px phone in Chinese and English', async () => {
    await page.setViewportSize(PHONE);
    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') await e2e.setLanguage('en');
      await page.locator(`[data-testid="result-card"][data-result-id="${trayResultId}"]`).click();
      const overview = detail().getByTestId('detail-numbered');
      await overview.waitFor();
      await expect.poll(() => overview.getByTestId('overview-box').count(), POLL).toBeGreaterThan(9);
      // The photo and its boxes fit the screen's width.
      const frame = await overview.boundingBox();
      expect(frame!.x).toBeGreaterThanOrEqual(0);
      expect(frame!.x + frame!.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, `issue25c-results-numbered-${lang}-390`, false);
      await escapeDialog(page, detail());
      await page.getByTestId('results-export').click();
      await page.getByTestId('export-per-specimen').waitFor();
      await screenshot(page, `issue25c-results-export-menu-${lang}-390`, false);
      await escapeDialog(page, page.getByTestId('export-per-specimen'));
    }
  });
});
