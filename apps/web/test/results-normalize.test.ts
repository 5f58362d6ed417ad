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
      ossKey: 'results/7/12/overlay.webp',
      overlayImageUrl: '/media/results/7/12/overlay.webp',
      ppdValue: 5.42,
      subPpdValues: [4.9, 6.1, 5.26],
      prediction: 'mild',
      confidence: 0.91,
      taskId: 7,
      visImages: { cut2_1: '/media/c1.webp', pred_3: 'https://oss.example/p3.webp' },
      errorCode: null,
      errorMessage: null,
      processingTime: 0.21,
    });
  });

  it('accepts every alternative field name, and confidence defaults to 1', () => {
    for (const key of ['taskId', 'task_id', 'processing_task_id', 'processingTaskId']) {
      expect(normalizeResult({ [key]: 5 }).taskId).toBe(5);
    }
    const r = normalizeResult({ ppdValue: '7.5', subPpdValues: [7, 8], overlayImageUrl: 'https://cdn/x.png', confidence: 'n/a', processingTime: 2 });
    expect(r).toMatchObject({ ppdValue: 7.5, subPpdValues: [7, 8], overlayImageUrl: 'https://cdn/x.png', confidence: 1, processingTime: 2 });
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
    expect(fileNameFromDisposition('attachment; filename="prediction_results_7_2026-11-21.csv"')).toBe('prediction_results_7_2026-11-21.csv');
    expect(fileNameFromDisposition('attachment; filename=results.csv')).toBe('results.csv');
    expect(fileNameFromDisposition("attachment; filename=\"x.csv\"; filename*=UTF-8''%E7%BB%93%E6%9E%9C.csv")).toBe('结果.csv');
    expect(fileNameFromDisposition('attachment; filename="../../etc/a.csv"')).toBe('a.csv');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
