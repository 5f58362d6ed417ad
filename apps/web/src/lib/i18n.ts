import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Every visible string lives in src/locales/{en,zh}/<namespace>.json, one namespace per section
 * (common, home, images, folders, prediction, tasks, results, connection). English is the initial language.
 */
type Resources = Record<string, Record<string, Record<string, unknown>>>;
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });
const resources: Resources = {};
for (const [file, mod] of Object.entries(files)) {
  const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
  if (!match) continue;
  const [, lang, ns] = match as unknown as [string, string, string];
  (resources[lang] ??= {})[ns] = mod.default;
}

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

void i18n.use(initReactI18next).init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en ?? {}),
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
