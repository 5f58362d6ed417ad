import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { ApiError, apiUrl, errorFromResponse, listCount, listResults } from '../src/lib/api-client';
import { codeMessage, errorMessage, TRANSLATED_ERROR_CODES, uploadErrorMessage } from '../src/lib/error-message';
import { formatSizeMb } from '../src/lib/format';
import { clearHandOver, handOver, peekHandOver } from '../src/lib/hand-over';
import { uploadTotals } from '../src/features/images/upload-totals';
import { normalizeFolder } from '../src/lib/normalize-folder';
import { normalizeImage } from '../src/lib/normalize-image';
import { formatPpd, ppdColour, SEVERITY_COLOURS } from '../src/lib/ppd';
import { buildRows, groupKeyOf, layoutRows, sizeBucketOf, spreadKeys } from '../src/features/images/image-groups';
import enCommon from '../src/locales/en/common.json';
import zhCommon from '../src/locales/zh/common.json';
import enConnection from '../src/locales/en/connection.json';
import zhConnection from '../src/locales/zh/connection.json';

describe('normalizeImage', () => {
  it('reads the api.md object', () => {
    const img = normalizeImage({
      id: 3,
      name: 'plot3.jpg',
      image_url: '/media/a.jpg',
      thumbnail_url: '/media/t.webp',
      folderId: 4,
      size: 2483221,
      format: 'jpeg',
      created_time: '2026-11-21T10:00:00Z',
      uploadDate: '2026-11-21T10:00:00Z',
      hasPPD: true,
      ppdValue: 5.42,
      lastPrediction: 'mild',
      metadata: { genotype: 'TME419', rep: 2, odd: { nested: true } },
    });
    expect(img).toEqual({
      id: 3,
      name: 'plot3.jpg',
      url: '/media/a.jpg',
      thumbnailUrl: '/media/t.webp',
      folderId: 4,
      size: 2483221,
      format: 'jpeg',
      createdTime: '2026-11-21T10:00:00Z',
      uploadDate: '2026-11-21T10:00:00Z',
      hasPPD: true,
      ppdValue: 5.42,
      lastPrediction: 'mild',
      metadata: { genotype: 'TME419', rep: 2 },
      hasLabels: false,
      // no reviewed_result from the server: none known
      reviewed: null,
    });
  });

  it('accepts the alternatives: url for image_url, no thumbnail, numeric strings, missing PPD', () => {
    const img = normalizeImage({
      id: '7',
      name: 'x.PNG',
      url: 'http://oss/x.png',
      folder_id: null,
      size: '1048576',
      created_time: '2026-01-02T00:00:00Z',
    });
    expect(img.url).toBe('http://oss/x.png');
    expect(img.thumbnailUrl).toBe('http://oss/x.png');
    expect(img.id).toBe(7);
    expect(img.size).toBe(1048576);
    expect(img.folderId).toBeNull();
    expect(img.format).toBe('png');
    expect(img.uploadDate).toBe('2026-01-02T00:00:00Z');
    expect(img.hasPPD).toBe(false);
    expect(img.ppdValue).toBeNull();
  });
});

describe('normalizeFolder', () => {
  it('imageCount falls back to num_images, then 0; createdDate to created_at', () => {
    expect(normalizeFolder({ id: 1, name: 'A', imageCount: 5, createdDate: '2026-01-01T00:00:00Z' })).toMatchObject({
      imageCount: 5,
      createdDate: '2026-01-01T00:00:00Z',
      description: '',
    });
    expect(normalizeFolder({ id: 2, name: 'B', num_images: 9, created_at: '2025-05-05T00:00:00Z' })).toMatchObject({
      imageCount: 9,
      createdDate: '2025-05-05T00:00:00Z',
    });
    expect(normalizeFolder({ id: 3, name: 'C' })).toMatchObject({ imageCount: 0, createdDate: null });
  });
});

describe('api client helpers', () => {
  it('builds /api URLs and drops empty query values', () => {
    expect(apiUrl('/images/', { folder: 'none', search: '', page: 2, x: undefined, y: null })).toBe(
      '/api/images/?folder=none&page=2',
    );
  });

  it('turns JSON error bodies into ApiError with status, code, detail, fields and the whole body', () => {
    const err = errorFromResponse(
      409,
      JSON.stringify({ code: 'duplicate', detail: 'Duplicates', duplicates: ['a.jpg'] }),
    );
    expect([err.status, err.code, err.detail]).toEqual([409, 'duplicate', 'Duplicates']);
    expect(err.body.duplicates).toEqual(['a.jpg']);
    const field = errorFromResponse(
      400,
      JSON.stringify({ code: 'invalid', detail: 'Bad', fields: { name: 'required' } }),
    );
    expect(field.fields).toEqual({ name: 'required' });
    const html = errorFromResponse(502, '<html>Bad gateway</html>');
    expect([html.code, html.detail]).toEqual(['http_502', 'Request failed with status 502']);
  });

  it('reads lists given as an array or as an envelope', () => {
    expect(listResults([1, 2])).toEqual([1, 2]);
    expect(listResults({ count: 9, results: [1] })).toEqual([1]);
    expect(listCount({ count: 9, results: [1] })).toBe(9);
    expect(listCount([1, 2, 3])).toBe(3);
    expect(listResults(null)).toEqual([]);
  });
});

describe('formatting', () => {
  it('sizes in MB with 2 decimals', () => {
    expect(formatSizeMb(2483221)).toBe('2.37 MB');
    expect(formatSizeMb(0)).toBe('0.00 MB');
    // Issue 15 item 8: a 3 KB file is not "0.00 MB".
    expect(formatSizeMb(3 * 1024)).toBe('< 0.01 MB');
    expect(formatSizeMb(5243)).toBe('0.01 MB');
  });

  it('the upload dialog sums up files, bytes, speed and time left (issue 15 item 12)', () => {
    const items = [
      { size: 4_000_000, progress: 100, status: 'completed' },
      { size: 4_000_000, progress: 50, status: 'uploading' },
      { size: 2_000_000, progress: 0, status: 'uploading' },
    ];
    // 6 MB of 10 MB in 3 s: 2 MB/s, 2 s left.
    expect(uploadTotals(items, 1_000, 4_000)).toEqual({
      files: 3,
      filesDone: 1,
      bytes: 10_000_000,
      bytesDone: 6_000_000,
      speed: 2_000_000,
      secondsLeft: 2,
    });
    expect(uploadTotals(items, null, 4_000).speed).toBeNull();
    expect(uploadTotals([], null, 0)).toMatchObject({ files: 0, filesDone: 0, bytes: 0 });
  });

  it('PPD colours follow the bands: green < 4, yellow 4 to < 7, red >= 7, none when missing', () => {
    expect(ppdColour(3.99)).toBe(SEVERITY_COLOURS.healthy);
    expect(ppdColour(4)).toBe(SEVERITY_COLOURS.mild);
    expect(ppdColour(6.99)).toBe(SEVERITY_COLOURS.mild);
    expect(ppdColour(7)).toBe(SEVERITY_COLOURS.severe);
    expect(ppdColour(null)).toBeNull();
    expect(formatPpd(5.426)).toBe('5.43');
    expect(formatPpd(null)).toBe('--');
  });
});

describe('image grouping', () => {
  const img = (name: string, size: number, created: string, folderId: number | null = null) =>
    normalizeImage({ id: 1, name, size, created_time: created, folderId });

  it('size buckets at 1048576 and 5242880 bytes', () => {
    expect(sizeBucketOf(1_048_575)).toBe('<1MB');
    expect(sizeBucketOf(1_048_576)).toBe('1-5MB');
    expect(sizeBucketOf(5_242_880)).toBe('1-5MB');
    expect(sizeBucketOf(5_242_881)).toBe('>5MB');
  });

  it('keys by year, month or day (UTC), first letter, folder', () => {
    const a = img('leaf.jpg', 10, '2026-11-21T23:30:00Z', 4);
    expect(groupKeyOf(a, 'date', 'year')).toBe('2026');
    expect(groupKeyOf(a, 'date', 'month')).toBe('2026-11');
    expect(groupKeyOf(a, 'date', 'day')).toBe('2026-11-21');
    expect(groupKeyOf(a, 'name', 'day')).toBe('L');
    expect(groupKeyOf(img('_x.jpg', 1, '2026-01-01T00:00:00Z'), 'name', 'day')).toBe('#');
    expect(groupKeyOf(img('木薯.jpg', 1, '2026-01-01T00:00:00Z'), 'name', 'day')).toBe('木');
    expect(groupKeyOf(a, 'folder', 'day')).toBe('folder:4');
    // A time with an offset is grouped by its UTC day.
    expect(groupKeyOf(img('x.jpg', 1, '2026-11-21T23:30:00-02:00'), 'date', 'day')).toBe('2026-11-22');
    // Grouped by a sample field: its value as text, "" without it (the server's keys), whatever the sort.
    const tagged = { ...a, metadata: { genotype: 'TME419', dah: 7 } };
    expect(groupKeyOf(tagged, 'date', 'day', 'genotype')).toBe('TME419');
    expect(groupKeyOf(tagged, 'name', 'day', 'dah')).toBe('7');
    expect(groupKeyOf(tagged, 'name', 'day', 'plot')).toBe('');
  });

  it('spreads a long index evenly, keeping the first and the last key', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `P${i}`);
    const shown = spreadKeys(keys, 300);
    expect(shown).toHaveLength(300);
    expect(shown[0]).toBe('P0');
    expect(shown.at(-1)).toBe('P999');
    expect(new Set(shown).size).toBe(300);
    expect(spreadKeys(['a', 'b'], 300)).toEqual(['a', 'b']);
  });

  it('flattens groups into header rows and rows of N images', () => {
    const images = ['a1', 'a2', 'a3', 'b1'].map((n) => img(`${n}.jpg`, 1, '2026-01-01T00:00:00Z'));
    const { rows, groupStart } = buildRows(images, 2, (i) => groupKeyOf(i, 'name', 'day'));
    expect(
      rows.map((r) =>
        r.kind === 'header'
          ? `H:${r.key}:${r.count}`
          : r.kind === 'images'
            ? r.items.map((i) => i.name).join(',')
            : '?',
      ),
    ).toEqual(['H:A:3', 'a1.jpg,a2.jpg', 'a3.jpg', 'H:B:1', 'b1.jpg']);
    expect([...groupStart.entries()]).toEqual([
      ['A', 0],
      ['B', 3],
    ]);
  });

  it('lays out every row of the library from the server groups, loaded or not (issue 15 item 3)', () => {
    // 5 images of one day, then 90 000 of another: the far group's header row is known without loading it.
    const { rows, groupStart } = layoutRows(
      [
        { key: '2026-11-09', count: 5, start: 0 },
        { key: '2026-11-01', count: 90_000, start: 5 },
      ],
      4,
    );
    expect(rows.slice(0, 5)).toEqual([
      { kind: 'header', key: '2026-11-09', count: 5, first: 0 },
      { kind: 'slots', key: '2026-11-09', first: 0, length: 4 },
      { kind: 'slots', key: '2026-11-09', first: 4, length: 1 },
      { kind: 'header', key: '2026-11-01', count: 90_000, first: 5 },
      { kind: 'slots', key: '2026-11-01', first: 5, length: 4 },
    ]);
    expect(rows).toHaveLength(3 + 1 + 22_500);
    expect(rows.at(-1)).toEqual({ kind: 'slots', key: '2026-11-01', first: 90_001, length: 4 });
    expect([...groupStart.entries()]).toEqual([
      ['2026-11-09', 0],
      ['2026-11-01', 3],
    ]);
  });
});

describe('error messages in the current language', () => {
  const t = i18n.createInstance();
  void t.init({
    resources: {
      en: { common: enCommon, connection: enConnection },
      zh: { common: zhCommon, connection: zhConnection },
    },
    lng: 'zh',
    defaultNS: 'common',
    initImmediate: false,
    showSupportNotice: false,
  });
  const zh = t.getFixedT('zh');
  const en = t.getFixedT('en');

  it('every translated code has a text in both languages', () => {
    for (const code of TRANSLATED_ERROR_CODES) {
      expect((enCommon.errors as Record<string, string>)[code], code).toBeTruthy();
      expect((zhCommon.errors as Record<string, string>)[code], code).toBeTruthy();
    }
  });

  it('network, timeout and server codes are translated; never the English detail', () => {
    expect(errorMessage(zh, new ApiError(0, 'network_error', 'Failed to fetch'))).toBe('网络错误：无法连接服务器');
    expect(errorMessage(zh, new ApiError(0, 'timeout', 'Request timed out after 10 s'))).toBe('服务器在 10 秒内未响应');
    expect(errorMessage(en, new ApiError(0, 'timeout', 'x'))).toBe('The server did not answer within 10 seconds');
    expect(
      errorMessage(
        zh,
        errorFromResponse(400, JSON.stringify({ code: 'no_images', detail: 'Select at least one image' })),
      ),
    ).toBe(zhCommon.errors.no_images);
    expect(
      errorMessage(zh, errorFromResponse(415, JSON.stringify({ code: 'not_an_image', detail: 'Not an image' }))),
    ).toBe(zhCommon.errors.not_an_image);
  });

  it('http_<status>, internal_error and non-API failures take the fallback key, else errors.generic', () => {
    expect(errorMessage(zh, errorFromResponse(502, '<html>Bad gateway</html>'))).toBe('出现错误');
    expect(
      errorMessage(zh, errorFromResponse(500, JSON.stringify({ code: 'internal_error', detail: 'Internal error' }))),
    ).toBe('出现错误');
    expect(errorMessage(zh, new TypeError('Failed to fetch'))).toBe('出现错误');
    expect(errorMessage(zh, errorFromResponse(502, ''), 'connection:error.generic')).toBe(zhConnection.error.generic);
    expect(errorMessage(en, undefined, 'connection:error.generic')).toBe('connection failed');
    // A translated cause wins over the fallback.
    expect(errorMessage(zh, new ApiError(0, 'network_error', 'x'), 'connection:error.generic')).toBe(
      '网络错误：无法连接服务器',
    );
  });

  it('per-file upload error codes', () => {
    for (const code of ['not_an_image', 'too_large', 'suspicious_compression', 'corrupt_entry', 'duplicate'] as const) {
      expect(uploadErrorMessage(zh, code)).toBe(zhCommon.errors[code]);
    }
    expect(uploadErrorMessage(zh, 'something_new')).toBe('出现错误');
    expect(codeMessage(zh, 'http_404')).toBeNull();
    expect(codeMessage(zh, null)).toBeNull();
  });
});

describe('English sentences on a Chinese screen (issue 15 item 16)', () => {
  it('finds sentences, not names, codes, file names or units', async () => {
    const { englishSentences } = await import('./helpers/english-sentences');
    expect(englishSentences('任务失败。Every image failed; each result gives its error_code')).toEqual([
      'Every image failed; each result gives its',
    ]);
    expect(englishSentences('没有找到样本：no specimen stands out from the background')).toEqual([
      'no specimen stands out from the background',
    ]);
    expect(
      englishSentences(
        '模型：DeepLabV3+ ResNet-101 · 颜色分割（CIELAB） · plot_3.jpg · 2.50 MB · PPD 4.20 · E2E trial',
      ),
    ).toEqual([]);
  });
  it('every Chinese text of the app is free of English sentences', async () => {
    const { englishSentences } = await import('./helpers/english-sentences');
    const files = import.meta.glob<{ default: Record<string, unknown> }>('../src/locales/zh/*.json', { eager: true });
    const texts: string[] = [];
    const walk = (v: unknown) => {
      if (typeof v === 'string') texts.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    for (const mod of Object.values(files)) walk(mod.default);
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.flatMap(englishSentences)).toEqual([]);
    // One term for "image": 图像, never 图片.
    expect(texts.filter((s) => s.includes('图片'))).toEqual([]);
  });
});

describe('hand-over between sections', () => {
  it('keeps one value per key until it is cleared; a later hand-over replaces it', () => {
    expect(peekHandOver('resultsTask')).toBeNull();
    handOver('resultsTask', 7);
    handOver('imagesFolder', 3);
    handOver('resultsTask', 9);
    // Reading does not take it (a render may run twice); the keys do not mix.
    expect(peekHandOver('resultsTask')).toBe(9);
    expect(peekHandOver('resultsTask')).toBe(9);
    expect(peekHandOver('imagesFolder')).toBe(3);
    expect(peekHandOver('rerunParameters')).toBeNull();
    clearHandOver('resultsTask');
    expect(peekHandOver('resultsTask')).toBeNull();
    expect(peekHandOver('imagesFolder')).toBe(3);
    clearHandOver('imagesFolder');
  });
});
