import { Modal, Radio, Space, Typography, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DuplicateAction } from '../api/upload-images';

/** Asks what to do with duplicates: skip (default) or overwrite. Cancel stops the upload. */
export function DuplicateDialog({ names, onAnswer }: { names: string[] | null; onAnswer: (a: DuplicateAction | null) => void }) {
  const { t } = useTranslation('images');
  const [action, setAction] = useState<DuplicateAction>('skip');
  useEffect(() => {
    if (names) setAction('skip');
  }, [names]);
  return (
    <Modal
      open={names !== null}
      title={t('duplicates_title')}
      okText={t('continue_upload')}
      cancelText={t('cancel')}
      onOk={() => onAnswer(action)}
      onCancel={() => onAnswer(null)}
      okButtonProps={{ 'data-testid': 'duplicate-ok' } as ButtonProps}
      zIndex={1100}
    >
      <Typography.Paragraph>{t('duplicates_text', { count: names?.length ?? 0 })}</Typography.Paragraph>
      <ul className="duplicate-names" data-testid="duplicate-names">
        {(names ?? []).slice(0, 20).map((n) => (
          <li key={n}>{n}</li>
        ))}
        {(names?.length ?? 0) > 20 ? <li>{t('and_more', { count: (names?.length ?? 0) - 20 })}</li> : null}
      </ul>
      <Radio.Group value={action} onChange={(e) => setAction(e.target.value as DuplicateAction)}>
        <Space orientation="vertical">
          <Radio value="skip" data-testid="duplicate-skip">
            {t('duplicate_skip')}
          </Radio>
          <Radio value="overwrite" data-testid="duplicate-overwrite">
            {t('duplicate_overwrite')}
          </Radio>
        </Space>
      </Radio.Group>
    </Modal>
  );
}
