import { FileSearchOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { taskModelLabel } from '../../../lib/model-label';
import { UNKNOWN_TASK_STATUS, type TaskView } from '../../../lib/normalize-task';

const STATUS_COLOURS: Record<string, string> = {
  running: 'blue',
  completed: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** The selected task: name, model, created time and status badge. */
export function TaskBanner({ task }: { task: TaskView }) {
  const { t } = useTranslation('results');
  const known = STATUS_COLOURS[task.status] !== undefined || task.status === UNKNOWN_TASK_STATUS;
  return (
    <div className="results-banner" data-testid="results-banner">
      <FileSearchOutlined className="results-banner-icon" />
      <div className="results-banner-body">
        <div className="results-banner-title">
          <strong>{task.name}</strong>
          <Tag color={STATUS_COLOURS[task.status] ?? 'default'}>{known ? t(`status.${task.status}`) : task.status}</Tag>
        </div>
        <div className="results-banner-meta">
          {t('banner.model')}
          {t('banner.colon')}
          <span data-testid="results-banner-model">{taskModelLabel(task, t)}</span> · {t('banner.created')}
          {t('banner.colon')}
          {formatDateTime(task.createdDate)}
        </div>
      </div>
    </div>
  );
}
