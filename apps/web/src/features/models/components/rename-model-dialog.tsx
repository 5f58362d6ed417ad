import { Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LabModelView } from '../../../lib/lab-models';
import { MODEL_NAME_MAX } from '@cassavascope/contract';

interface Props {
  model: LabModelView | null;
  saving: boolean;
  onSave: (name: string) => void;
  onClose: () => void;
}

/** Rename a model (results already scored keep the name they were scored under). */
export function RenameModelDialog({ model, saving, onSave, onClose }: Props) {
  const { t } = useTranslation('models');
  const [name, setName] = useState('');
  useEffect(() => setName(model?.name ?? ''), [model]);
  const blank = name.trim() === '';
  return (
    <Modal
      open={model !== null}
      title={t('rename.title')}
      okText={t('rename.save')}
      cancelText={t('train.close')}
      onOk={() => !blank && onSave(name)}
      onCancel={onClose}
      okButtonProps={{ disabled: blank, loading: saving }}
    >
      <Input
        value={name}
        maxLength={MODEL_NAME_MAX}
        showCount
        aria-label={t('train.name')}
        onChange={(e) => setName(e.target.value)}
        onPressEnter={() => !blank && onSave(name)}
        data-testid="rename-input"
      />
    </Modal>
  );
}
