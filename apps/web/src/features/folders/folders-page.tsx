import { useTranslation } from 'react-i18next';

/** Being built (issue 5). */
export default function FoldersPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('nav.folders')}</h1>
    </div>
  );
}
