import { describe, expect, it } from 'vitest';
import { modelTypeLabel, taskModelLabel } from '../src/lib/model-label';
import { normalizeTask, normalizeTaskList, UNKNOWN_TASK_STATUS } from '../src/lib/normalize-task';
import { anyTaskRunning, isFilteredList } from '../src/features/tasks/api/get-tasks';
import {
  countStatuses,
  measuredSecondsPerImage,
  processedImages,
  remainingEstimate,
  remainingMinutes,
  scoredImages,
  summarizeTasks,
  summaryCounts,
  taskDuration,
  wallSeconds,
} from '../src/features/tasks/task-figures';
import { estimatedSeconds } from '../src/features/prediction/estimate';

const task = (over: Record<string, unknown>) =>
  normalizeTask({ id: 1, name: 'T', status: 'completed', image_count: 10, ...over });

describe('task normaliser (spec section 3)', () => {
  it('reads the API task', () => {
    const t = normalizeTask({
      id: 7,
      name: 'Plot 3',
      status: 'running',
      algorithm: 'deeplabv3plus_resnet101',
      model_type: 'deeplabv3plus_resnet101',
      image_ids: [1, 2, 3],
      image_count: 3,
      progress: 33.3,
      processed_count: 1,
      created_time: '2026-11-21T10:00:00Z',
      updated_time: '2026-11-21T10:00:05Z',
      completed_time: null,
      parameters: {
        threshold: 0.6,
        min_size: 120,
        method: 'none',
        use_tta: true,
        morph_kernel_size: 7,
        morph_iterations: 2,
        overlay_opacity: 0.4,
      },
      statistics: { healthyCount: 1, diseaseCount: 0, averageConfidence: 0.9, processingTime: 1.5, totalProcessed: 1 },
    });
    expect(t).toMatchObject({
      id: 7,
      modelType: 'deeplabv3plus_resnet101',
      imageCount: 3,
      createdDate: '2026-11-21T10:00:00Z',
      completedDate: '2026-11-21T10:00:05Z',
      progress: 33.3,
      processedCount: 1,
      parameters: {
        usePostProcessing: false,
        useTTA: true,
        confidenceThreshold: 0.6,
        minArea: 120,
        morphKernelSize: 7,
        morphIterations: 2,
      },
      statistics: { healthyCount: 1, averageConfidence: 0.9, totalProcessed: 1 },
    });
  });

  it('accepts every alternative: modelType/model_type/algorithm, image_ids length, completed_time first', () => {
    expect(normalizeTask({ modelType: 'a', model_type: 'b', algorithm: 'c' }).modelType).toBe('a');
    expect(normalizeTask({ model_type: 'b', algorithm: 'c' }).modelType).toBe('b');
    expect(normalizeTask({ algorithm: 'c' }).modelType).toBe('c');
    expect(normalizeTask({ image_ids: [4, 5] }).imageCount).toBe(2);
    expect(normalizeTask({ completed_time: 'x', updated_time: 'y' }).completedDate).toBe('x');
    expect(normalizeTask({ usePostProcessing: true, useTTA: false }).parameters).toMatchObject({
      usePostProcessing: true,
      useTTA: false,
    });
    expect(normalizeTask({ statistics: null }).statistics).toBeNull();
  });

  it('a task without a status is unknown, not running: no cancel button, no polling', () => {
    const t = normalizeTask({ id: 3, name: 'Old' });
    expect(t.status).toBe(UNKNOWN_TASK_STATUS);
    expect(anyTaskRunning({ count: 1, results: [t], statusCounts: null })).toBe(false);
    expect(normalizeTask({ status: 'running' }).status).toBe('running');
  });

  it('counts image_ids given as numeric strings, and drops what is not an id', () => {
    expect(normalizeTask({ image_ids: ['4', '5', ' 6 '] })).toMatchObject({ image_ids: [4, 5, 6], imageCount: 3 });
    expect(normalizeTask({ image_ids: [1, '2', 'x', '', null, 0, -3, 1.5, '7.5'] }).image_ids).toEqual([1, 2]);
  });

  it('reads engine_label (or engineLabel), null when absent', () => {
    expect(normalizeTask({ engine_label: 'Colour segmentation (CIELAB)' }).engineLabel).toBe(
      'Colour segmentation (CIELAB)',
    );
    expect(normalizeTask({ engineLabel: 'DeepLabV3+ ResNet-101' }).engineLabel).toBe('DeepLabV3+ ResNet-101');
    expect(normalizeTask({ engine_label: null }).engineLabel).toBeNull();
    expect(normalizeTask({}).engineLabel).toBeNull();
  });

  it('reads a list as an array or an envelope', () => {
    expect(normalizeTaskList([{ id: 1 }, { id: 2 }]).count).toBe(2);
    expect(normalizeTaskList({ count: 9, results: [{ id: 1 }] })).toMatchObject({
      count: 9,
      results: [{ id: 1 }],
      statusCounts: null,
    });
    expect(
      normalizeTaskList({ count: 1, results: [], status_counts: { running: 1, completed: 0 } }).statusCounts,
    ).toEqual({ running: 1, completed: 0 });
  });
});

describe('task figures', () => {
  it('success rate is completed over all, rounded', () => {
    const s = summarizeTasks(countStatuses([task({}), task({}), task({ status: 'failed' })]));
    expect(s).toEqual({ total: 3, completed: 2, running: 0, failed: 1, successRate: 67 });
    expect(summarizeTasks({}).successRate).toBe(0);
    // The server's counts over every task (more than one page): cancelled tasks count in the total.
    expect(summarizeTasks({ running: 2, completed: 1500, failed: 300, cancelled: 200 })).toEqual({
      total: 2002,
      completed: 1500,
      running: 2,
      failed: 300,
      successRate: 75,
    });
  });

  it('duration: h+m, m+s or s; to now while running', () => {
    const created = '2026-11-21T10:00:00Z';
    const at = (iso: string) => Date.parse(iso);
    expect(taskDuration(task({ created_time: created, completed_time: '2026-11-21T11:05:09Z' }), 0)).toEqual({
      unit: 'hm',
      h: 1,
      m: 5,
    });
    expect(taskDuration(task({ created_time: created, completed_time: '2026-11-21T10:02:03Z' }), 0)).toEqual({
      unit: 'ms',
      m: 2,
      s: 3,
    });
    expect(taskDuration(task({ created_time: created, completed_time: '2026-11-21T10:00:42Z' }), 0)).toEqual({
      unit: 's',
      s: 42,
    });
    const running = task({ status: 'running', created_time: created, updated_time: '2026-11-21T10:00:01Z' });
    expect(taskDuration(running, at('2026-11-21T10:00:30Z'))).toEqual({ unit: 's', s: 30 });
  });

  it('processed = floor(progress/100 x count); remaining = ceil((100 - progress)/10) minutes', () => {
    expect(processedImages({ progress: 45.5, imageCount: 11 })).toBe(5);
    expect(processedImages({ progress: 100, imageCount: 11 })).toBe(11);
    expect(remainingMinutes(0)).toBe(10);
    expect(remainingMinutes(42.5)).toBe(6);
    expect(remainingMinutes(100)).toBe(0);
  });
});

describe('task model label', () => {
  it('engine label first (descriptions in the UI language), then a readable name for known model ids, then the raw value', async () => {
    const i18n = (await import('../src/lib/i18n')).default;
    await i18n.changeLanguage('en');
    const model = (over: Record<string, unknown>) =>
      taskModelLabel(normalizeTask({ id: 1, ...over }), i18n.t.bind(i18n));
    expect(model({ engine_label: 'Colour segmentation (CIELAB)', model_type: 'deeplabv3plus_resnet101' })).toBe(
      'Colour segmentation (CIELAB)',
    );
    expect(model({ engine_label: null, model_type: 'deeplabv3plus_resnet101' })).toBe('DeepLabV3+ ResNet-101');
    expect(model({ engine_label: '  ', algorithm: 'resnet101' })).toBe('DeepLabV3+ ResNet-101');
    expect(model({})).toBe('DeepLabV3+ ResNet-101');
    expect(model({ model_type: 'custom_unet_v2' })).toBe('custom_unet_v2');
    expect(modelTypeLabel('resnet50')).toBe('DeepLabV3+ ResNet-50');
    expect(modelTypeLabel('mobilenet')).toBe('DeepLabV3+ MobileNet');
    expect(modelTypeLabel('ResNet101')).toBe('DeepLabV3+ ResNet-101');
    expect(model({ engine_label: 'DeepLabV3+ ResNet-101' })).toBe('DeepLabV3+ ResNet-101');
    await i18n.changeLanguage('zh');
    expect(model({ engine_label: 'Colour segmentation (CIELAB)' })).toBe('颜色分割（CIELAB）');
    expect(model({ engine_label: 'DeepLabV3+ ResNet-101' })).toBe('DeepLabV3+ ResNet-101');
    await i18n.changeLanguage('en');
  });
});

describe('summary counts', () => {
  const rows = [task({}), task({ status: 'failed' }), task({ status: 'running' })];
  it("uses the server's status_counts whatever the filter", () => {
    const counts = { running: 1, completed: 40, failed: 2, cancelled: 0 };
    expect(summaryCounts({ statusCounts: counts, results: rows, filtered: true }, null)).toBe(counts);
  });

  it('without status_counts: rows of an unfiltered list; while filtered, the last unfiltered counts', () => {
    expect(summaryCounts({ statusCounts: null, results: rows, filtered: false }, null)).toEqual({
      completed: 1,
      failed: 1,
      running: 1,
    });
    const remembered = { completed: 5, failed: 1 };
    expect(summaryCounts({ statusCounts: null, results: [], filtered: true }, remembered)).toBe(remembered);
    expect(summaryCounts(undefined, remembered)).toBe(remembered);
    // Never saw an unfiltered list: the filtered rows are all there is.
    expect(summaryCounts({ statusCounts: null, results: rows.slice(0, 1), filtered: true }, null)).toEqual({
      completed: 1,
    });
  });

  it('a search or a status filter counts as filtered', () => {
    expect(isFilteredList({ search: '', status: 'all' })).toBe(false);
    expect(isFilteredList({ search: '  ', status: 'all' })).toBe(false);
    expect(isFilteredList({ search: 'plot', status: 'all' })).toBe(true);
    expect(isFilteredList({ search: '', status: 'failed' })).toBe(true);
  });
});

describe('issue 15: estimates a researcher can trust', () => {
  const base = { image_count: 349, created_time: '2026-11-25T10:00:00Z' };
  it("remaining time comes from the task's own measured rate once an image is done (item 1)", () => {
    // 71 % after 36.75 s: 248 of 349 images at 6.75 images/s leaves 101 images, about 15 s (not "3 minutes").
    const running = normalizeTask({ ...base, id: 1, name: 'r', status: 'running', progress: 71, processed_count: 248 });
    const now = Date.parse('2026-11-25T10:00:36.750Z');
    expect(remainingEstimate(running, now)).toEqual({ kind: 'measured', seconds: 15 });
    // The seed's formula holds until there is a measurement: ceil((100 - progress) / 10) minutes.
    const fresh = normalizeTask({ ...base, id: 2, name: 'f', status: 'running', progress: 0, processed_count: 0 });
    expect(remainingEstimate(fresh, now)).toEqual({ kind: 'seed', minutes: 10 });
  });

  it('wall time runs from creation to completion, not the summed worker time (item 2)', () => {
    const done = normalizeTask({
      ...base,
      id: 3,
      name: 'd',
      status: 'completed',
      completed_time: '2026-11-25T10:00:26Z',
      statistics: {
        healthyCount: 300,
        diseaseCount: 49,
        averageConfidence: 0.9,
        processingTime: 50.2,
        totalProcessed: 349,
      },
    });
    expect(wallSeconds(done, Date.parse('2026-11-25T12:00:00Z'))).toBe(26);
    expect(done.statistics?.processingTime).toBe(50.2);
  });

  it("the Prediction estimate uses this server's measured seconds per image (item 1)", () => {
    const done = (id: number, images: number, seconds: number, status = 'completed') =>
      normalizeTask({
        id,
        name: 'x',
        status,
        image_count: images,
        processed_count: images,
        created_time: '2026-11-25T10:00:00Z',
        completed_time: new Date(Date.parse('2026-11-25T10:00:00Z') + seconds * 1000).toISOString(),
      });
    expect(measuredSecondsPerImage([])).toBeNull();
    // 349 images in 27 s and 1 in 1 s: 28 s over 350 images; the failed task does not count.
    expect(measuredSecondsPerImage([done(1, 349, 27), done(2, 1, 1), done(3, 10, 100, 'failed')])).toBeCloseTo(0.08, 5);
    expect(estimatedSeconds(349)).toBe(105);
    expect(estimatedSeconds(349, 0.08)).toBe(28);
  });

  it('a task with nothing scored has no confidence to show (item 5)', () => {
    const failed = normalizeTask({
      ...base,
      id: 4,
      name: 'f',
      status: 'failed',
      failed_count: 349,
      processed_count: 349,
      statistics: { healthyCount: 0, diseaseCount: 0, averageConfidence: 0, processingTime: 3, totalProcessed: 349 },
    });
    expect(scoredImages(failed)).toBe(0);
  });
});
