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

/** Where the language picked in the menu is remembered (this browser only). */
export const LANGUAGE_STORAGE_KEY = 'cassavascope.language';

/** The language picked on an earlier visit; a first visit starts in English (spec section 9), whatever the browser says. */
function rememberedLanguage(): Language {
  try {
    const saved = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'en';
  } catch {
    return 'en'; // storage blocked (privacy settings): English, as on a first visit
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: rememberedLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en ?? {}),
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lng) => {
  try {
    if ((LANGUAGES as readonly string[]).includes(lng)) globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
});

export default i18n;
