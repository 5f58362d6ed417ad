import { BarChartOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Modal, Progress, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { taskModelLabel } from '../../../lib/model-label';
import { UNKNOWN_TASK_STATUS, type TaskView } from '../../../lib/normalize-task';
import { processedImages, remainingMinutes } from '../task-figures';
import { TaskStatusBadge } from './task-status';

interface Props {
  task: TaskView | null;
  onClose: () => void;
  onViewResults: (task: TaskView) => void;
}

function Block({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="task-details-block" data-testid={testId}>
      <h4>{title}</h4>
      {children}
    </section>
  );
}

function YesNo({ value }: { value: boolean }) {
  const { t } = useTranslation('tasks');
  return value ? (
    <Tag color="success" icon={<CheckOutlined />}>
      {t('details.yes')}
    </Tag>
  ) : (
    <Tag icon={<CloseOutlined />}>{t('details.no')}</Tag>
  );
}

const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** Every block the spec lists: basic info, parameters, statistics, progress, remaining time, status text. */
export function TaskDetailsModal({ task, onClose, onViewResults }: Props) {
  const { t } = useTranslation('tasks');
  if (!task) return <Modal open={false} footer={null} />;
  const running = task.status === 'running';
  const p = task.parameters;
  const stats = task.statistics;
  const processed = processedImages(task);
  // The spec shows these four as labels only; the value is available on hover.
  const labelled: [string, number | null][] = [
    [t('details.confidence_threshold'), p.confidenceThreshold],
    [t('details.min_area'), p.minArea],
    [t('details.morph_kernel'), p.morphKernelSize],
    [t('details.morph_iterations'), p.morphIterations],
  ];
  const statusText =
    task.status === 'running' || task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled' || task.status === UNKNOWN_TASK_STATUS
      ? t(`details.status_text.${task.status}`)
      : task.status;

  return (
    <Modal
      open
      width={720}
      title={t('details.title')}
      onCancel={onClose}
      footer={[
        <Button key="results" icon={<BarChartOutlined />} onClick={() => onViewResults(task)} data-testid="task-view-results">
          {t('details.view_results')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('details.close')}
        </Button>,
      ]}
    >
      <div className="task-details" data-testid="task-details-panel">
        <Block title={t('details.basic')} testId="details-basic">
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2 }}
            items={[
              { key: 'name', label: t('details.name'), children: task.name },
              { key: 'model', label: t('details.model'), children: taskModelLabel(task, t) },
              { key: 'images', label: t('details.image_count'), children: task.imageCount },
              { key: 'created', label: t('details.created'), children: formatDateTime(task.createdDate) },
              { key: 'status', label: t('details.status'), children: <TaskStatusBadge status={task.status} /> },
              { key: 'progress', label: t('details.progress'), children: `${Math.round(task.progress)}%` },
            ]}
          />
        </Block>
        <Block title={t('details.parameters')} testId="details-parameters">
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2 }}
            items={[
              { key: 'post', label: t('details.post_processing'), children: <YesNo value={p.usePostProcessing} /> },
              { key: 'tta', label: t('details.tta'), children: <YesNo value={p.useTTA} /> },
            ]}
          />
          <div className="task-details-labels">
            {labelled.map(([label, value]) => (
              <Tooltip key={label} title={value ?? '--'}>
                <Tag>{label}</Tag>
              </Tooltip>
            ))}
          </div>
        </Block>
        {stats && (
          <Block title={t('details.statistics')} testId="details-statistics">
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2 }}
              items={[
                { key: 'healthy', label: t('details.healthy_count'), children: stats.healthyCount },
                { key: 'disease', label: t('details.disease_count'), children: stats.diseaseCount },
                {
                  key: 'confidence',
                  label: t('details.average_confidence'),
                  children: <span data-testid="average-confidence">{(stats.averageConfidence * 100).toFixed(1)}%</span>,
                },
                { key: 'time', label: t('details.processing_time'), children: t('details.seconds', { value: stats.processingTime.toFixed(1) }) },
              ]}
            />
            <div className="task-details-health">
              <div className="task-details-health-row">
                <span>{t('details.healthy')}</span>
                <Progress percent={percentOf(stats.healthyCount, stats.totalProcessed)} strokeColor="#389e0d" size="small" />
              </div>
              <div className="task-details-health-row">
                <span>{t('details.disease')}</span>
                <Progress percent={percentOf(stats.diseaseCount, stats.totalProcessed)} strokeColor="#cf1322" size="small" />
              </div>
            </div>
          </Block>
        )}
        <Block title={t('details.overall_progress')} testId="details-progress">
          <Progress percent={Math.round(task.progress)} status={running ? 'active' : task.status === 'failed' ? 'exception' : undefined} />
          <div className="task-details-progress-meta">
            <span data-testid="processed-count">{t('details.processed', { processed, total: task.imageCount })}</span>
            <span data-testid="remaining-time">
              {running
                ? t('details.remaining', { count: remainingMinutes(task.progress) })
                : task.status === UNKNOWN_TASK_STATUS
                  ? '--'
                  : t('details.completed_label')}
            </span>
          </div>
          <p className="task-details-status-text" data-testid="status-text">
            {statusText}
          </p>
          {task.errorMessage && <Alert type="error" showIcon title={task.errorMessage} />}
        </Block>
      </div>
    </Modal>
  );
}
