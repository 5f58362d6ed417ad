import { describe, expect, it } from 'vitest';
import { normalizeResult, normalizeResultList, resolveMediaUrl } from '../src/lib/normalize-result';
import { exportFileName, fileNameFromDisposition } from '../src/features/results/api/export-results';

describe('result normaliser (spec section 3)', () => {
  it('reads the API result', () => {
    const r = normalizeResult({
      id: 301,
      task_id: 7,
      image_id: 12,
      imageName: 'plot3.jpg',
      original_image_url: '/media/o.jpg',
      thumbnail_url: '/media/thumbs/ab/o.webp',
      oss_key: 'results/7/12/overlay.webp',
      result_image_url: '/media/results/7/12/overlay.webp',
      ppd_value: 5.42,
      sub_ppd_values: [4.9, 6.1, 5.26],
      prediction: 'mild',
      confidence: 0.91,
      vis_images: { cut2_1: '/media/c1.webp', pred_3: 'https://oss.example/p3.webp', other: '/x' },
      error_code: null,
      error_message: null,
      processing_time: 0.21,
    });
    expect(r).toEqual({
      id: 301,
      imageId: 12,
      imageName: 'plot3.jpg',
      originalImageUrl: '/media/o.jpg',
      thumbnailUrl: '/media/thumbs/ab/o.webp',
      ossKey: 'results/7/12/overlay.webp',
      overlayImageUrl: '/media/results/7/12/overlay.webp',
      ppdValue: 5.42,
      subPpdValues: [4.9, 6.1, 5.26],
      prediction: 'mild',
      confidence: 0.91,
      taskId: 7,
      visImages: { cut2_1: '/media/c1.webp', pred_3: 'https://oss.example/p3.webp' },
      // An older server sends no specimens: one per value or stored image, with what is known.
      specimens: [
        {
          index: 1,
          kind: 'root_slice',
          box: null,
          ppd: 4.9,
          enginePpd: 4.9,
          confidence: null,
          needsReview: false,
          excluded: false,
          corrected: false,
          source: 'engine',
          cutUrl: '/media/c1.webp',
          predUrl: null,
        },
        {
          index: 2,
          kind: 'root_slice',
          box: null,
          ppd: 6.1,
          enginePpd: 6.1,
          confidence: null,
          needsReview: false,
          excluded: false,
          corrected: false,
          source: 'engine',
          cutUrl: null,
          predUrl: null,
        },
        {
          index: 3,
          kind: 'root_slice',
          box: null,
          ppd: 5.26,
          enginePpd: 5.26,
          confidence: null,
          needsReview: false,
          excluded: false,
          corrected: false,
          source: 'engine',
          cutUrl: null,
          predUrl: 'https://oss.example/p3.webp',
        },
      ],
      needsReview: false,
      reviewed: false,
      enginePpdValue: 5.42,
      errorCode: null,
      errorMessage: null,
      processingTime: 0.21,
      // no `model`: the default engine scored it
      model: null,
    });
  });

  it('reads the lab model a result was scored with', () => {
    expect(normalizeResult({ id: 1, model: { id: 4, name: 'Tray slices' } }).model).toEqual({
      id: 4,
      name: 'Tray slices',
    });
    expect(normalizeResult({ id: 1, model: null }).model).toBeNull();
    expect(normalizeResult({ id: 1, model: { name: 'no id' } }).model).toBeNull();
  });

  it('reads every specimen, vis_images keys past 3, and the review fields', () => {
    const specimens = Array.from({ length: 24 }, (_, i) => ({
      index: i + 1,
      kind: i === 23 ? 'leaf' : 'root_slice',
      box: [10 * i, 20, 30, 40],
      ppd: i / 3,
      engine_ppd: i === 5 ? 9 : i / 3,
      confidence: 0.8,
      needs_review: i === 7,
      excluded: i === 2,
      corrected: i === 5,
      source: i === 23 ? 'reviewer' : 'engine',
      cut_url: `/media/r/cut2_${i + 1}.webp`,
      pred_url: `results/r/pred_${i + 1}.webp`,
    }));
    const vis = Object.fromEntries(
      specimens.flatMap((s) => [
        [`cut2_${s.index}`, s.cut_url],
        [`pred_${s.index}`, s.pred_url],
      ]),
    );
    const r = normalizeResult({
      id: 1,
      ppd_value: 4,
      specimens,
      vis_images: vis,
      needs_review: true,
      reviewed: true,
      engine_ppd_value: 4.2,
    });
    expect(r.specimens).toHaveLength(24);
    expect(Object.keys(r.visImages)).toHaveLength(48);
    expect(r.visImages.pred_24).toBe('/media/results/r/pred_24.webp');
    expect(r.specimens[23]).toEqual({
      index: 24,
      kind: 'leaf',
      box: [230, 20, 30, 40],
      ppd: 23 / 3,
      enginePpd: 23 / 3,
      confidence: 0.8,
      needsReview: false,
      excluded: false,
      corrected: false,
      source: 'reviewer',
      cutUrl: '/media/r/cut2_24.webp',
      predUrl: '/media/results/r/pred_24.webp',
    });
    expect(r.specimens[5]).toMatchObject({ corrected: true, enginePpd: 9 });
    expect(r.specimens[7]!.needsReview).toBe(true);
    expect(r.specimens[2]!.excluded).toBe(true);
    expect(r).toMatchObject({ needsReview: true, reviewed: true, enginePpdValue: 4.2 });
    // A failed result: no specimens, its overview kept.
    const failed = normalizeResult({
      ppd_value: null,
      specimens: [],
      error_code: 'not_a_specimen_photo',
      result_image_url: '/media/o.webp',
    });
    expect(failed).toMatchObject({
      specimens: [],
      needsReview: false,
      enginePpdValue: null,
      overlayImageUrl: '/media/o.webp',
    });
    // Box as an object, and an older server with only keys past 3.
    expect(normalizeResult({ specimens: [{ box: { x: 1, y: 2, w: 3, h: 4 } }] }).specimens[0]!.box).toEqual([
      1, 2, 3, 4,
    ]);
    expect(normalizeResult({ vis_images: { cut2_5: '/m/c5.webp' } }).specimens.map((s) => s.cutUrl)).toEqual([
      null,
      null,
      null,
      null,
      '/m/c5.webp',
    ]);
  });

  it('accepts every alternative field name, and confidence defaults to 1', () => {
    for (const key of ['taskId', 'task_id', 'processing_task_id', 'processingTaskId']) {
      expect(normalizeResult({ [key]: 5 }).taskId).toBe(5);
    }
    const r = normalizeResult({
      ppdValue: '7.5',
      subPpdValues: [7, 8],
      overlayImageUrl: 'https://cdn/x.png',
      confidence: 'n/a',
      processingTime: 2,
    });
    expect(r).toMatchObject({
      ppdValue: 7.5,
      subPpdValues: [7, 8],
      overlayImageUrl: 'https://cdn/x.png',
      confidence: 1,
      processingTime: 2,
    });
    expect(normalizeResult({ ppd_value: null, error_code: 'no_specimen_found', error_message: 'none' })).toMatchObject({
      ppdValue: null,
      errorCode: 'no_specimen_found',
      errorMessage: 'none',
    });
  });

  it('uses http addresses as they are and builds the others from the storage key', () => {
    expect(resolveMediaUrl('http://a/b.jpg')).toBe('http://a/b.jpg');
    expect(resolveMediaUrl('/media/x.jpg')).toBe('/media/x.jpg');
    expect(resolveMediaUrl('results/1/2/overlay.webp')).toBe('/media/results/1/2/overlay.webp');
    expect(normalizeResult({ oss_key: 'results/1/o.webp' }).overlayImageUrl).toBe('/media/results/1/o.webp');
    expect(resolveMediaUrl(null)).toBeNull();
  });

  it('reads a list as an array or an envelope', () => {
    expect(normalizeResultList([{ id: 1 }]).count).toBe(1);
    expect(normalizeResultList({ count: 40, results: [{ id: 1 }] }).count).toBe(40);
  });

  it('export file name is prediction_results_{taskId or all}_{UTC date}.csv', () => {
    const at = new Date('2026-11-21T23:30:00Z');
    expect(exportFileName(7, at)).toBe('prediction_results_7_2026-11-21.csv');
    expect(exportFileName(null, at)).toBe('prediction_results_all_2026-11-21.csv');
  });

  it("reads the server's file name from Content-Disposition", () => {
    expect(fileNameFromDisposition('attachment; filename="prediction_results_7_2026-11-21.csv"')).toBe(
      'prediction_results_7_2026-11-21.csv',
    );
    expect(fileNameFromDisposition('attachment; filename=results.csv')).toBe('results.csv');
    expect(fileNameFromDisposition('attachment; filename="x.csv"; filename*=UTF-8\'\'%E7%BB%93%E6%9E%9C.csv')).toBe(
      '结果.csv',
    );
    expect(fileNameFromDisposition('attachment; filename="../../etc/a.csv"')).toBe('a.csv');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

describe('PPD distribution bars (issue 15 item 4)', () => {
  it('an empty band draws no bar; a non-empty one is at least 5 % wide', async () => {
    const { barWidth, MIN_BAR_PERCENT } = await import('../src/features/results/bar-width');
    expect(MIN_BAR_PERCENT).toBe(5);
    expect(barWidth(0, 0)).toBe(0);
    expect(barWidth(0, 10)).toBe(0);
    expect(barWidth(1, 100)).toBe(5);
    expect(barWidth(30, 100)).toBe(30);
  });
});
