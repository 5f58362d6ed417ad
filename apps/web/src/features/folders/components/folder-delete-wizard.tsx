import { ExclamationCircleFilled } from '@ant-design/icons';
import { Alert, App, Button, Modal, Radio, Select, Space, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteFolder } from '../../../lib/folders-api';
import type { FolderItem } from '../../../lib/normalize-folder';

type Choice = 'move' | 'delete';

interface Props {
  folder: FolderItem | null;
  folders: FolderItem[];
  onClose: () => void;
  onDeleted: () => void;
}

/**
 * The multi-step delete of spec section 4. Step 1: move the images or delete them. Step 2 (move): pick another
 * folder, or none (the images become uncategorised). Step 3 (delete): confirm. The server does the move/delete
 * and the folder removal in one all-or-nothing call.
 */
export function FolderDeleteWizard({ folder, folders, onClose, onDeleted }: Props) {
  const { t } = useTranslation('folders');
  const { message } = App.useApp();
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [choice, setChoice] = useState<Choice>('move');
  const [target, setTarget] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (folder) {
      setStep(1);
      setChoice('move');
      setTarget(null);
    }
  }, [folder]);

  if (!folder) return null;
  const others = folders.filter((f) => f.id !== folder.id);

  const run = async (action: Choice) => {
    setBusy(true);
    try {
      await deleteFolder(folder.id, action === 'move' ? { action: 'move', target } : { action: 'delete' });
      message.success(
        action === 'move' && folder.imageCount > 0
          ? t('moved_and_deleted', { count: folder.imageCount })
          : t('deleted'),
      );
      onDeleted();
    } catch {
      message.error(t(action === 'move' ? 'move_failed' : 'delete_failed'));
    } finally {
      setBusy(false);
    }
  };

  // An empty folder has nothing to move or delete: a plain confirmation, no wizard.
  if (folder.imageCount === 0) {
    return (
      <Modal
        open
        title={t('delete_title', { name: folder.name })}
        onCancel={onClose}
        mask={{ closable: !busy }}
        footer={[
          <Button key="cancel" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>,
          <Button
            key="delete"
            type="primary"
            danger
            loading={busy}
            data-testid="folder-delete-confirm"
            onClick={() => void run('move')}
          >
            {t('delete')}
          </Button>,
        ]}
      >
        <Typography.Paragraph data-testid="folder-delete-empty">
          {t('delete_empty_text', { name: folder.name })}
        </Typography.Paragraph>
      </Modal>
    );
  }

  const footer =
    step === 1
      ? [
          <Button key="cancel" onClick={onClose}>
            {t('cancel')}
          </Button>,
          <Button
            key="next"
            type="primary"
            data-testid="wizard-next"
            onClick={() => setStep(choice === 'move' ? 2 : 3)}
          >
            {t('next')}
          </Button>,
        ]
      : [
          <Button key="back" onClick={() => setStep(1)} disabled={busy}>
            {t('back')}
          </Button>,
          <Button
            key="confirm"
            type="primary"
            danger={step === 3}
            loading={busy}
            data-testid="wizard-confirm"
            onClick={() => void run(step === 2 ? 'move' : 'delete')}
          >
            {step === 2 ? t('move_and_delete') : t('delete_all')}
          </Button>,
        ];

  return (
    <Modal
      open
      title={t('delete_title', { name: folder.name })}
      onCancel={onClose}
      footer={footer}
      mask={{ closable: !busy }}
      width={560}
    >
      <Steps
        size="small"
        current={step === 1 ? 0 : 1}
        style={{ margin: '8px 0 20px' }}
        items={[{ title: t('step_choose') }, { title: step === 3 ? t('step_delete') : t('step_move') }]}
      />
      {step === 1 ? (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Text>{t('delete_question', { count: folder.imageCount })}</Typography.Text>
          <Radio.Group value={choice} onChange={(e) => setChoice(e.target.value as Choice)} data-testid="wizard-choice">
            <Space orientation="vertical">
              <Radio value="move" data-testid="choice-move">
                {t('choice_move')}
              </Radio>
              <Radio value="delete" data-testid="choice-delete">
                {t('choice_delete')}
              </Radio>
            </Space>
          </Radio.Group>
        </Space>
      ) : null}
      {step === 2 ? (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Text>{t('move_target_label')}</Typography.Text>
          <Select
            allowClear
            style={{ width: '100%' }}
            placeholder={t('move_target_none')}
            value={target ?? undefined}
            onChange={(v?: number) => setTarget(v ?? null)}
            options={others.map((f) => ({ value: f.id, label: `${f.name} (${f.imageCount})` }))}
            data-testid="wizard-target"
          />
          <Typography.Text type="secondary">
            {target === null ? t('move_to_none_hint') : t('move_to_folder_hint')}
          </Typography.Text>
        </Space>
      ) : null}
      {step === 3 ? (
        <Alert
          type="error"
          showIcon
          icon={<ExclamationCircleFilled />}
          title={t('delete_confirm_title')}
          description={t('delete_confirm_text', { count: folder.imageCount, name: folder.name })}
        />
      ) : null}
    </Modal>
  );
}
