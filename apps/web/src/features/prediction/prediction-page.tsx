import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';

/** Placeholder: the second web engineer replaces this page. */
export default function PredictionPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('nav.prediction')}</h1>
      <Empty />
    </div>
  );
}
