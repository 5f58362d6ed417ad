import { useTranslation } from 'react-i18next';

/** Placeholder shell; the web issues build the real one. */
export function App() {
  const { t } = useTranslation();
  return <h1>{t('app_name')}</h1>;
}
