import i18n, { LANGUAGES } from './i18n';

type T = (key: string) => string;

/**
 * A folder's description as shown: the sample folder's, which the app wrote in the language of the day it was
 * created, is shown in the screen's language (issue 25 item 9: an English description on the Chinese screen).
 * Any other description is the researcher's own text, shown as written.
 */
export function folderDescriptionText(t: T, description: string): string {
  const text = description.trim();
  const written = LANGUAGES.some((lng) => i18n.getResource(lng, 'home', 'sample.description') === text);
  return written ? t('home:sample.description') : description;
}
