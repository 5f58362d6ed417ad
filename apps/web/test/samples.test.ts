import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeSpecimenJpeg } from '../../server/test/helpers/specimens';
import { PHONE, POLL, chooseSelectOption, screenshot } from './helpers/browser';
import { startE2e, type E2e } from './helpers/e2e';
import { toast, uploadThroughUi } from './helpers/images-ui';
import { zipBytes } from './helpers/test-files';

/**
 * Samples (issue 17) in a real browser against the real server and engine: a ZIP of photos named
 * genotype_rep_dah_root is uploaded, the pattern's preview shows what each name gives and which name does not
 * match, the fields are applied, a task scores the photos, and the By group tab shows each genotype's mean PPD
 * (the server's figure), in English and in Chinese.
 */
let e2e: E2e;
let page: Page;

const NAMES = [
  'TME419_1_7d_R1.jpg',
  'TME419_2_7d_R1.jpg',
  'TME419_3_7d_R2.jpg',
  'TME693_1_7d_R1.jpg',
  'TME693_2_7d_R2.jpg',
  'notes_field.jpg',
];

beforeAll(async () => {
  e2e = await startE2e();
  page = e2e.page;
  await e2e.open();
});

afterAll(async () => {
  await e2e?.close();
});

/**
 * Closes the group's photos with the drawer's close button and waits until it is gone: Escape reaches the drawer
 * only once it has focus, which a drawer still sliding in may not have yet.
 */
async function closeGroupPhotos(): Promise<void> {
  await page.locator('.ant-drawer-open .ant-drawer-close').click();
  await page.getByTestId('group-photos').waitFor({ state: 'hidden' });
}

describe('samples: pattern from names, a task, the mean per genotype', () => {
  it('uploads a ZIP of patterned names and previews what the pattern reads', async () => {
    const entries = await Promise.all(
      NAMES.map(async (name, i) => ({
        name,
        bytes: await makeSpecimenJpeg({ width: 360, height: 240, seed: 5 + i * 7 }),
      })),
    );
    await e2e.goto('images');
    await uploadThroughUi(page, 'zip', [{ name: 'trial.zip', mimeType: 'application/zip', buffer: zipBytes(entries) }]);
    await expect
      .poll(async () => (await e2e.server.api('/api/images/?folder=none')).body.count, POLL)
      .toBe(NAMES.length);

    await e2e.goto('samples');
    // The default pattern is the trial's: five names match, the notes photo does not.
    await expect.poll(() => page.getByTestId('matched-count').textContent(), POLL).toBe('Matched: 5');
    await expect
      .poll(
        () => page.getByTestId('name-fit-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))),
        POLL,
      )
      .toEqual(['notes_field.jpg']);
    // ...with why (issue 25 item 5).
    expect(await page.getByTestId('unmatched-list').getByTestId('name-fit-reason').textContent()).toBe(
      '“_” should follow {rep} (Replicate); the name has “field” from there.',
    );
    const row = page.getByTestId('matched-table').locator('tr').filter({ hasText: 'TME419_3_7d_R2.jpg' });
    await expect
      .poll(() => row.locator('[data-field]').allTextContents(), POLL)
      .toEqual(['Genotype TME419', 'Replicate 3', 'Days after harvest 7', 'Root R2']);
    // A pattern that reads text into a number field: the preview marks it and Apply is off.
    await page.getByTestId('pattern-input').fill('{genotype}_{dah}');
    await expect.poll(() => page.locator('.ant-alert-warning').count(), POLL).toBe(1);
    await expect.poll(() => page.getByTestId('pattern-apply').isDisabled(), POLL).toBe(true);
    // A broken pattern says so.
    await page.getByTestId('pattern-input').fill('{genotype');
    await expect.poll(() => page.locator('.ant-alert-error').textContent(), POLL).toContain('matching braces');
    await page.getByTestId('pattern-input').fill('{genotype}_{rep}_{dah}d_{root}');
    await expect.poll(() => page.getByTestId('matched-count').textContent(), POLL).toBe('Matched: 5');
    await screenshot(page, 'samples-preview-en');
    await page.getByTestId('pattern-apply').click();
    await toast(page, 'Fields stored for 5 images.');
    const image = (await e2e.server.api('/api/images/?search=TME693_2')).body.results[0];
    expect(image.metadata).toEqual({ genotype: 'TME693', rep: 2, dah: 7, root: 'R2' });
  });

  it('runs a task and reads each genotype mean in the By group tab, in English and in Chinese', async () => {
    const ids = (await e2e.server.api('/api/images/?page_size=100')).body.results.map((i: { id: number }) => i.id);
    const task = await e2e.server.api('/api/tasks/prediction/', {
      method: 'POST',
      body: { name: 'Genotype trial', image_ids: ids },
    });
    expect(task.status).toBe(201);
    await expect
      .poll(async () => (await e2e.server.api(`/api/tasks/${task.body.id}/`)).body.status, {
        timeout: 120_000,
        interval: 250,
      })
      .toBe('completed');
    const groups = (await e2e.server.api(`/api/predictions/groups/?by=genotype&task_id=${task.body.id}`)).body as {
      key: { genotype: string | null };
      mean: number;
      images: number;
    }[];
    const tme419 = groups.find((g) => g.key.genotype === 'TME419')!;
    expect(tme419.images).toBe(3);

    await page.getByTestId('tab-groups').click();
    await chooseSelectOption(page, 'groups-task', 'Genotype trial');
    const meanOf = (genotype: string) =>
      page.getByTestId('groups-table').locator('tr').filter({ hasText: genotype }).getByTestId('group-mean');
    await expect.poll(() => meanOf('TME419').textContent(), POLL).toBe(tme419.mean.toFixed(2));
    await expect
      .poll(() => page.getByTestId('dot-plot').getByTestId('dot-plot-row').locator('.dot-plot-mean').count(), POLL)
      .toBe(groups.filter((g) => g.mean !== null).length);
    await screenshot(page, 'samples-groups-en');
    // A group opens its photos.
    await page.getByTestId('groups-table').locator('tr').filter({ hasText: 'TME419' }).click();
    await expect.poll(() => page.getByTestId('group-photos').locator('figure').count(), POLL).toBe(3);
    await expect.poll(() => page.getByTestId('group-photos-title').textContent(), POLL).toBe('TME419');
    // Each photo's value can be read whole under its picture, however long its name.
    const values = page.getByTestId('group-photos').getByTestId('group-photo-ppd');
    await expect
      .poll(() => values.allTextContents(), POLL)
      .toEqual(Array(3).fill(expect.stringMatching(/^PPD \d+\.\d\d$/)));
    for (const value of await values.all()) {
      expect(
        await value.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0),
      ).toBe(true);
    }
    await screenshot(page, 'samples-group-photos-en');
    await closeGroupPhotos();
    // The group without a genotype shows the one photo whose name did not match.
    await page.getByTestId('groups-table').locator('tr').filter({ hasText: '(none)' }).click();
    await expect
      .poll(() => page.getByTestId('group-photos').locator('figcaption').allTextContents(), POLL)
      .toEqual([expect.stringContaining('notes_field.jpg')]);
    await closeGroupPhotos();

    await e2e.setLanguage('zh');
    await expect.poll(() => page.getByTestId('tab-groups').textContent(), POLL).toBe('按组统计');
    await expect
      .poll(() => page.getByTestId('groups-table').locator('th').allTextContents(), POLL)
      .toContain('平均 PPD');
    await expect.poll(() => meanOf('TME419').textContent(), POLL).toBe(tme419.mean.toFixed(2));
    await screenshot(page, 'samples-groups-zh');
    await page.getByTestId('tab-names').click();
    await expect.poll(() => page.getByTestId('matched-count').textContent(), POLL).toBe('匹配：5');
    await screenshot(page, 'samples-preview-zh');
    await e2e.setLanguage('en');
  });

  it('filters Images and Results by a field value', async () => {
    await e2e.goto('images');
    await chooseSelectOption(page, 'metadata-filter-field', 'Genotype');
    await chooseSelectOption(page, 'metadata-filter-value', 'TME693');
    await expect.poll(() => page.locator('[data-testid="image-card"]').count(), POLL).toBe(2);
    await expect.poll(() => page.getByTestId('images-total').textContent(), POLL).toContain('2');
    await screenshot(page, 'samples-images-filter-en');

    // Edit the fields of the two selected images at once: a plot number for both.
    for (const name of ['TME693_1_7d_R1.jpg', 'TME693_2_7d_R2.jpg']) {
      await page.locator(`[data-testid="image-card"][data-image-name="${name}"] input[type="checkbox"]`).check();
    }
    await page.getByTestId('edit-fields').click();
    await page.getByTestId('edit-field-name').locator('input').fill('plot');
    await page.getByTestId('edit-field-value').fill('P-12');
    await screenshot(page, 'samples-edit-fields-en');
    await page.getByTestId('edit-fields-save').click();
    await toast(page, 'Fields saved for 2 images.');
    const edited = (await e2e.server.api('/api/images/?meta.plot=P-12')).body;
    expect(edited.results.map((i: { name: string }) => i.name).sort()).toEqual([
      'TME693_1_7d_R1.jpg',
      'TME693_2_7d_R2.jpg',
    ]);
    expect(edited.results[0].metadata.genotype).toBe('TME693');

    await e2e.goto('results');
    await chooseSelectOption(page, 'metadata-filter-field', 'Genotype');
    await chooseSelectOption(page, 'metadata-filter-value', 'TME419');
    await expect.poll(() => page.getByTestId('results-count').textContent(), POLL).toContain('3');
    await screenshot(page, 'samples-results-filter-en');
  });

  it('reads the fields at upload when a pattern is given in the upload dialog', async () => {
    await e2e.goto('images');
    const entries = await Promise.all(
      ['TMS30572_1_14d_R1.jpg', 'TMS30572_2_14d_R1.jpg'].map(async (name, i) => ({
        name,
        bytes: await makeSpecimenJpeg({ seed: 90 + i }),
      })),
    );
    await page.getByTestId('upload-zip').click();
    await page.getByTestId('upload-pattern').fill('{genotype');
    await expect.poll(() => page.getByTestId('choose-files').isDisabled(), POLL).toBe(true);
    await page.getByTestId('upload-pattern').fill('{genotype}_{rep}_{dah}d_{root}');
    await screenshot(page, 'samples-upload-pattern-en');
    await page
      .getByTestId('upload-input')
      .setInputFiles([{ name: 'later.zip', mimeType: 'application/zip', buffer: zipBytes(entries) }]);
    await toast(page, 'Fields read from 2 names; 0 did not match the pattern.');
    const read = (await e2e.server.api('/api/images/?meta.genotype=TMS30572')).body;
    expect(read.count).toBe(2);
    expect(read.results.map((i: { metadata: Record<string, unknown> }) => i.metadata.dah)).toEqual([14, 14]);
    await e2e.goto('samples');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.getByTestId('pattern-input').isVisible(), POLL).toBe(true);
    await screenshot(page, 'samples-preview-phone');
    await page.getByTestId('tab-groups').click();
    await expect.poll(() => page.getByTestId('dot-plot').isVisible(), POLL).toBe(true);
    await screenshot(page, 'samples-groups-phone');
  });
});
