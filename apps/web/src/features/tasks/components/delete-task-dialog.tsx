import { ExclamationCircleFilled } from '@ant-design/icons';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskView } from '../../../lib/normalize-task';

interface Props {
  task: TaskView | null;
  deleting: boolean;
  onConfirm: (task: TaskView) => void;
  onCancel: () => void;
}

/** Warns that deleting is irreversible and removes the results and result images, not the original images. */
export function DeleteTaskDialog({ task, deleting, onConfirm, onCancel }: Props) {
  const { t } = useTranslation('tasks');
  return (
    <Modal
      open={task !== null}
      title={
        <span>
          <ExclamationCircleFilled className="task-delete-icon" /> {t('delete.title')}
        </span>
      }
      okText={t('delete.confirm')}
      cancelText={t('delete.cancel')}
      okButtonProps={{ danger: true, loading: deleting }}
      onOk={() => task && onConfirm(task)}
      onCancel={onCancel}
      destroyOnHidden
    >
      <p>
        <strong>{task?.name}</strong>
      </p>
      <p data-testid="delete-warning">{t('delete.warning')}</p>
    </Modal>
  );
}
