import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_DIR } from './helpers/paths';

/** Every visible string exists in both languages, and the Chinese is really Chinese. */
const LOCALES = path.join(WEB_DIR, 'src/locales');

function flatten(obj: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (obj && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object') for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
      else out.set(key, String(v));
    }
  }
  return out;
}

function load(lang: string, ns: string): Map<string, string> {
  return flatten(JSON.parse(fs.readFileSync(path.join(LOCALES, lang, `${ns}.json`), 'utf8')));
}

/** Proper names, units and pure numbers/symbols are the same in both languages. */
const SAME_IN_BOTH =
  /^(PPD|MB|AI|ZIP|CSV|API|TTA|JPEG|PNG|WebP|TIFF|GIF|English|中文|PostgreSQL|DeepLabV3\+ ResNet-101|resnet50|resnet101|mobilenet|[\d\s.,%+:<>=/()\-–]*(MB)?)$/;

const namespaces = (lang: string) =>
  fs.existsSync(path.join(LOCALES, lang))
    ? fs
        .readdirSync(path.join(LOCALES, lang))
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.replace(/\.json$/, ''))
        .sort()
    : [];

describe('i18n resources', () => {
  it('en and zh have the same namespaces', () => {
    expect(namespaces('zh')).toEqual(namespaces('en'));
    expect(namespaces('en')).toContain('common');
  });

  for (const ns of namespaces('en')) {
    it(`${ns}: every key exists in both languages`, () => {
      const en = load('en', ns);
      const zh = load('zh', ns);
      expect(
        [...zh.keys()].filter((k) => !en.has(k)),
        `keys only in zh/${ns}.json`,
      ).toEqual([]);
      expect(
        [...en.keys()].filter((k) => !zh.has(k)),
        `keys only in en/${ns}.json`,
      ).toEqual([]);
    });

    it(`${ns}: plural keys come in full sets (_one with _other)`, () => {
      // i18next picks _one/_other by count in English; Chinese has only the "other" form, so zh needs _other
      // (it carries _one too, to keep the key sets equal above). A lone _one or a bare key next to plurals breaks.
      for (const lang of ['en', 'zh']) {
        const keys = [...load(lang, ns).keys()];
        const set = new Set(keys);
        const broken = keys.filter((k) => k.endsWith('_one') && !set.has(`${k.slice(0, -4)}_other`));
        expect(broken, `${lang}/${ns}.json: _one without _other`).toEqual([]);
      }
    });

    it(`${ns}: Chinese texts are translated, with the same {{placeholders}}`, () => {
      const en = load('en', ns);
      const zh = load('zh', ns);
      const untranslated: string[] = [];
      const placeholderMismatch: string[] = [];
      for (const [key, enText] of en) {
        const zhText = zh.get(key);
        if (zhText === undefined) continue;
        if (zhText.trim() === '' || (zhText === enText && !SAME_IN_BOTH.test(enText))) untranslated.push(key);
        const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
        if (JSON.stringify(vars(enText)) !== JSON.stringify(vars(zhText))) placeholderMismatch.push(key);
      }
      expect(untranslated, `zh/${ns}.json values equal to English`).toEqual([]);
      expect(placeholderMismatch, `zh/${ns}.json placeholders differ`).toEqual([]);
    });
  }
});
