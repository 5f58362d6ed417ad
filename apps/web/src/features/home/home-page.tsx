import { useTranslation } from 'react-i18next';

/** Being built (issue 5). */
export default function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('nav.home')}</h1>
    </div>
  );
}
