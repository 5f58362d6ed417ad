import { PictureOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../lib/empty-state';

/** No model yet: how to teach the engine, step by step, with the way to the photos. */
export function ModelsEmpty({ onOpenImages }: { onOpenImages: () => void }) {
  const { t } = useTranslation('models');
  return (
    <EmptyState className="models-empty" testId="models-empty" title={t('empty.title')}>
      <ol className="models-empty-steps">
        <li>{t('empty.step_paint')}</li>
        <li>{t('empty.step_train')}</li>
        <li>{t('empty.step_score')}</li>
      </ol>
      <Typography.Paragraph type="secondary">{t('empty.import_hint')}</Typography.Paragraph>
      <Button icon={<PictureOutlined />} onClick={onOpenImages} data-testid="models-open-images">
        {t('empty.open_images')}
      </Button>
    </EmptyState>
  );
}
