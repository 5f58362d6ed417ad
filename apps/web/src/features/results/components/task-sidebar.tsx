import { AppstoreOutlined, FileSearchOutlined } from '@ant-design/icons';
import { Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { taskModelLabel } from '../../../lib/model-label';
import type { TaskView } from '../../../lib/normalize-task';

interface Props {
  tasks: TaskView[];
  /** every task on the server (the list's `count`), also those beyond the loaded page; null while loading */
  count: number | null;
  loading: boolean;
  selected: number | null;
  onSelect: (taskId: number | null) => void;
}

/** Task list with its count, an "all tasks" entry and each task's name, created time, model and result count. */
export function TaskSidebar({ tasks, count, loading, selected, onSelect }: Props) {
  const { t } = useTranslation('results');
  return (
    <aside className="results-sidebar" data-testid="results-sidebar">
      <div className="results-sidebar-title">
        {t('sidebar.title')}{' '}
        <span className="results-sidebar-count" data-testid="results-sidebar-count">
          ({count ?? '--'})
        </span>
      </div>
      {/* One list with "All tasks" first: on a narrow screen it becomes a strip that scrolls sideways. */}
      <div className="results-task-list">
        <button
          type="button"
          className={`results-task${selected === null ? ' is-current' : ''}`}
          onClick={() => onSelect(null)}
          data-testid="results-all-tasks"
        >
          <AppstoreOutlined className="results-task-icon" />
          <span className="results-task-name">{t('sidebar.all')}</span>
        </button>
        {tasks.map((task) => (
          <button
            key={task.id}
            type="button"
            className={`results-task${selected === task.id ? ' is-current' : ''}`}
            onClick={() => onSelect(task.id)}
            data-testid="results-task"
            data-task-id={task.id}
          >
            <FileSearchOutlined className="results-task-icon" />
            <span className="results-task-body">
              <span className="results-task-name" title={task.name}>
                {task.name}
              </span>
              <span className="results-task-meta">{formatDateTime(task.createdDate)}</span>
              <span className="results-task-meta">{taskModelLabel(task, t)}</span>
              <span className="results-task-meta results-task-count">
                {t('sidebar.results', { count: task.processedCount })}
              </span>
            </span>
          </button>
        ))}
      </div>
      {loading && <Skeleton active paragraph={{ rows: 3 }} />}
      {!loading && tasks.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sidebar.empty')} />
      )}
    </aside>
  );
}
