import { DeleteOutlined, EyeOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Progress, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import type { TaskView } from '../../../lib/normalize-task';
import { useTaskDurationText } from '../hooks/use-task-duration-text';
import { outcomeStatus } from '../task-figures';
import { taskModelText } from '../task-model-text';
import { TaskStatusBadge, TaskStatusIcon } from './task-status';

interface Props {
  task: TaskView;
  now: number;
  cancelling: boolean;
  onDetails: (task: TaskView) => void;
  onDelete: (task: TaskView) => void;
  onCancel: (task: TaskView) => void;
  /** the task's lab model by name (null: the default engine, or a model no longer listed) */
  labModelName: string | null;
}

/** One task: icon, name, badge, model, image count, created, who started it, duration; progress and cancel while running. */
export function TaskRow({ task, now, cancelling, onDetails, onDelete, onCancel, labModelName }: Props) {
  const { t } = useTranslation('tasks');
  const { can, reason } = useCan();
  const changes = can('change');
  const duration = useTaskDurationText();
  const running = task.status === 'running';
  return (
    <article className="task-row" data-testid="task-row" data-task-id={task.id} data-status={task.status}>
      <div className="task-row-main">
        <TaskStatusIcon status={outcomeStatus(task)} />
        <div className="task-row-body">
          <div className="task-row-title">
            <h3 title={task.name}>{task.name}</h3>
            <TaskStatusBadge task={task} />
          </div>
          <dl className="task-row-meta">
            <div>
              <dt>{t('row.model')}</dt>
              <dd data-testid="task-model">{taskModelText(task, labModelName, t)}</dd>
            </div>
            <div>
              <dt>{t('row.images')}</dt>
              <dd>{task.imageCount}</dd>
            </div>
            <div>
              <dt>{t('row.created')}</dt>
              <dd>{formatDateTime(task.createdDate)}</dd>
            </div>
            {/* Who started it: known when sign-in is on (issue 25). */}
            {task.createdBy ? (
              <div>
                <dt>{t('row.created_by')}</dt>
                <dd data-testid="task-row-created-by">{task.createdBy}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('row.duration')}</dt>
              <dd data-testid="task-duration">{duration(task, now)}</dd>
            </div>
          </dl>
          {running && (
            <div className="task-row-progress">
              <Progress percent={Math.round(task.progress)} status="active" size="small" data-testid="task-progress" />
            </div>
          )}
        </div>
      </div>
      <div className="task-row-actions">
        {running && (
          // Cancelling stops a long task for good: it is confirmed first.
          <Popconfirm
            title={t('cancel_confirm.title')}
            description={<span className="task-cancel-confirm-text">{t('cancel_confirm.text')}</span>}
            okText={t('cancel_confirm.ok')}
            cancelText={t('cancel_confirm.keep')}
            okButtonProps={{ danger: true, ...{ 'data-testid': 'task-cancel-confirm' } }}
            onConfirm={() => onCancel(task)}
          >
            <Tooltip title={reason('change')}>
              <Button danger icon={<StopOutlined />} loading={cancelling} disabled={!changes} data-testid="task-cancel">
                {t('actions.cancel')}
              </Button>
            </Tooltip>
          </Popconfirm>
        )}
        <Button icon={<EyeOutlined />} onClick={() => onDetails(task)} data-testid="task-details">
          {t('actions.details')}
        </Button>
        <Tooltip title={reason('change')}>
          <Button
            danger
            type="text"
            icon={<DeleteOutlined />}
            disabled={!changes}
            onClick={() => onDelete(task)}
            data-testid="task-delete"
          >
            {t('actions.delete')}
          </Button>
        </Tooltip>
      </div>
    </article>
  );
}
