import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  StopOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { UNKNOWN_TASK_STATUS, type TaskView } from '../../../lib/normalize-task';
import { outcomeStatus, taskStatusText } from '../task-figures';

type StatusOf = Pick<TaskView, 'status' | 'refusedCount' | 'processedCount' | 'imageCount'>;

const COLOURS: Record<string, string> = {
  running: 'blue',
  completed: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** The status icon of a task row; any status not in the spec gets a neutral one. */
export function TaskStatusIcon({ status }: { status: string }) {
  const cls = `task-status-icon is-${COLOURS[status] ? status : 'other'}`;
  if (status === 'running') return <SyncOutlined spin className={cls} />;
  if (status === 'completed') return <CheckCircleOutlined className={cls} />;
  if (status === 'failed') return <CloseCircleOutlined className={cls} />;
  if (status === 'cancelled') return <StopOutlined className={cls} />;
  return <ClockCircleOutlined className={cls} />;
}

/**
 * The status badge, by outcome (a task of refused photos is completed: "Completed, 14 refused"); a task without
 * a status reads "unknown", other statuses are shown as they come; both neutral.
 */
export function TaskStatusBadge({ task }: { task: StatusOf }) {
  const { t } = useTranslation('tasks');
  const status = outcomeStatus(task);
  return (
    <Tag color={COLOURS[status] ?? 'default'} data-testid="task-status">
      {COLOURS[status] || status === UNKNOWN_TASK_STATUS ? taskStatusText(t, task) : status}
    </Tag>
  );
}
