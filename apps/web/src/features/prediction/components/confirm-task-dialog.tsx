import { Alert, Input, Modal } from 'antd';
import { TASK_NAME_MAX } from '@cassavascope/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  name: string;
  estimatedImages: number;
  creating: boolean;
  onConfirm: (name: string) => void;
  onCancel: () => void;
}

/** Confirms (and may correct) the task name before the task is created. */
export function ConfirmTaskDialog({ open, name, estimatedImages, creating, onConfirm, onCancel }: Props) {
  const { t } = useTranslation('prediction');
  const [value, setValue] = useState(name);
  useEffect(() => {
    if (open) setValue(name);
  }, [open, name]);
  const blank = value.trim() === '';
  return (
    <Modal
      open={open}
      title={t('confirm.title')}
      okText={t('confirm.ok')}
      cancelText={t('confirm.cancel')}
      okButtonProps={{ disabled: blank, loading: creating }}
      onOk={() => onConfirm(value.trim())}
      onCancel={onCancel}
      destroyOnHidden
    >
      <p>{t('confirm.body', { count: estimatedImages })}</p>
      <label className="prediction-confirm-label" htmlFor="confirm-task-name">
        {t('task_name.label')}
      </label>
      <Input
        id="confirm-task-name"
        value={value}
        maxLength={TASK_NAME_MAX}
        showCount
        status={blank ? 'error' : undefined}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={() => !blank && onConfirm(value.trim())}
      />
      {blank && <Alert className="prediction-confirm-alert" type="error" showIcon title={t('task_name.required')} />}
    </Modal>
  );
}
