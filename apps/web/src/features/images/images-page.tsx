import { useTranslation } from 'react-i18next';

/** Being built (issue 5). */
export default function ImagesPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('nav.images')}</h1>
    </div>
  );
}
