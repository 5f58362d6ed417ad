import {
  BarChartOutlined,
  CheckOutlined,
  CloseOutlined,
  DeploymentUnitOutlined,
  InfoCircleOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { Alert, Button, Descriptions, Modal, Progress, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { UNKNOWN_TASK_STATUS, type TaskView } from '../../../lib/normalize-task';
import { ttaActsOn } from '../../../lib/engine-status';
import { taskErrorText } from '../../../lib/task-error';
import { processedImages, remainingEstimate, scoredImages, wallSeconds } from '../task-figures';
import { taskModelText } from '../task-model-text';
import { TaskStatusBadge } from './task-status';

interface Props {
  task: TaskView | null;
  onClose: () => void;
  onViewResults: (task: TaskView) => void;
  /** "Run again with these parameters" */
  onRerun: (task: TaskView) => void;
  /** "Score again with this model": its images with a model to choose */
  onScoreAgain: (task: TaskView) => void;
  /** the task's lab model by name, when it scored with one (null: the default engine) */
  labModelName: string | null;
  /** the clock of the screen (ms), for the live estimate of a running task */
  now: number;
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

/** A task's `specimen_kind` in the UI's language; a value this app does not know is shown as sent. */
const specimenKindText = (kind: string, t: (key: string) => string) =>
  ['auto', 'root_slice', 'leaf'].includes(kind) ? t(`details.specimen_kinds.${kind}`) : kind;

const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** Every block the spec lists: basic info, parameters, statistics, progress, remaining time, status text. */
export function TaskDetailsModal({ task, onClose, onViewResults, onRerun, onScoreAgain, labModelName, now }: Props) {
  const { t } = useTranslation('tasks');
  if (!task) return <Modal open={false} footer={null} />;
  const running = task.status === 'running';
  const p = task.parameters;
  const stats = task.statistics;
  const processed = processedImages(task);
  const scored = scoredImages(task);
  const wall = wallSeconds(task, now);
  const estimate = running ? remainingEstimate(task, now) : null;
  // The spec's four labels, each with its value: what the task ran with, to read and to reuse.
  const labelled: [string, string, number | null][] = [
    ['threshold', t('details.confidence_threshold'), p.confidenceThreshold],
    ['min-area', t('details.min_area'), p.minArea],
    ['morph-kernel', t('details.morph_kernel'), p.morphKernelSize],
    ['morph-iterations', t('details.morph_iterations'), p.morphIterations],
    ['overlay-opacity', t('details.overlay_opacity'), p.overlayOpacity],
  ];
  const ttaIdle = !ttaActsOn({ label: task.engineLabel });
  const errorText = taskErrorText(t, task);
  const statusText =
    task.status === 'running' ||
    task.status === 'completed' ||
    task.status === 'failed' ||
    task.status === 'cancelled' ||
    task.status === UNKNOWN_TASK_STATUS
      ? t(`details.status_text.${task.status}`)
      : task.status;

  return (
    <Modal
      open
      width={720}
      title={t('details.title')}
      onCancel={onClose}
      footer={[
        <Button key="rerun" icon={<RedoOutlined />} onClick={() => onRerun(task)} data-testid="task-rerun">
          {t('details.rerun')}
        </Button>,
        <Button
          key="score-again"
          icon={<DeploymentUnitOutlined />}
          disabled={task.image_ids.length === 0}
          onClick={() => onScoreAgain(task)}
          data-testid="task-score-again"
        >
          {t('details.score_again')}
        </Button>,
        <Button
          key="results"
          icon={<BarChartOutlined />}
          onClick={() => onViewResults(task)}
          data-testid="task-view-results"
        >
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
              {
                key: 'model',
                label: t('details.model'),
                children: <span data-testid="task-model">{taskModelText(task, labModelName, t)}</span>,
              },
              {
                key: 'specimen_kind',
                label: t('details.specimen_kind'),
                children: <span data-testid="task-specimen-kind">{specimenKindText(task.specimenKind, t)}</span>,
              },
              { key: 'images', label: t('details.image_count'), children: task.imageCount },
              { key: 'created', label: t('details.created'), children: formatDateTime(task.createdDate) },
              ...(task.createdBy
                ? [
                    {
                      key: 'created_by',
                      label: t('details.created_by'),
                      children: <span data-testid="task-created-by">{task.createdBy}</span>,
                    },
                  ]
                : []),
              { key: 'status', label: t('details.status'), children: <TaskStatusBadge task={task} /> },
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
              ...labelled.map(([key, label, value]) => ({
                key,
                label,
                children: <span data-testid={`param-${key}`}>{value ?? '--'}</span>,
              })),
            ]}
          />
          {ttaIdle && (
            <p className="task-details-note" data-testid="tta-no-effect">
              <InfoCircleOutlined /> {t('details.tta_no_effect')}
            </p>
          )}
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
                  key: 'failed',
                  label: t('details.failed_count'),
                  children: <span data-testid="failed-count">{task.failedCount}</span>,
                },
                // Refusals are part of "not scored" but are outcomes (no specimen to score), not failures.
                ...(task.refusedCount > 0
                  ? [
                      {
                        key: 'refused',
                        label: t('details.refused_count'),
                        children: <span data-testid="refused-count">{task.refusedCount}</span>,
                      },
                    ]
                  : []),
                {
                  key: 'confidence',
                  label: t('details.average_confidence'),
                  children: (
                    <span data-testid="average-confidence">
                      {scored > 0 ? `${(stats.averageConfidence * 100).toFixed(1)}%` : '--'}
                    </span>
                  ),
                },
                {
                  key: 'time',
                  label: t('details.wall_time'),
                  children: (
                    <span data-testid="wall-time">
                      {wall === null ? '--' : t('details.seconds', { value: wall.toFixed(1) })}
                    </span>
                  ),
                },
                {
                  key: 'worker-time',
                  label: t('details.worker_time'),
                  children: (
                    <span data-testid="worker-time">
                      {t('details.seconds', { value: stats.processingTime.toFixed(1) })}
                    </span>
                  ),
                },
              ]}
            />
            {scored > 0 ? (
              <div className="task-details-health">
                <div className="task-details-health-row">
                  <span>{t('details.healthy')}</span>
                  <Progress
                    percent={percentOf(stats.healthyCount, stats.totalProcessed)}
                    strokeColor="#389e0d"
                    size="small"
                  />
                </div>
                <div className="task-details-health-row">
                  <span>{t('details.disease')}</span>
                  <Progress
                    percent={percentOf(stats.diseaseCount, stats.totalProcessed)}
                    strokeColor="#cf1322"
                    size="small"
                  />
                </div>
              </div>
            ) : (
              <p className="task-details-note" data-testid="nothing-scored">
                <InfoCircleOutlined />{' '}
                {task.refusedCount > 0 && task.refusedCount >= task.failedCount
                  ? t('details.nothing_scored_refused', { count: task.refusedCount })
                  : t('details.nothing_scored', { count: task.failedCount })}
              </p>
            )}
          </Block>
        )}
        <Block title={t('details.overall_progress')} testId="details-progress">
          <Progress
            percent={Math.round(task.progress)}
            status={
              running
                ? 'active'
                : task.status === 'failed'
                  ? 'exception'
                  : task.status === 'completed'
                    ? 'success'
                    : 'normal'
            }
            strokeColor={task.status === 'cancelled' ? '#d48806' : undefined}
          />
          <div className="task-details-progress-meta">
            <span data-testid="processed-count">{t('details.processed', { processed, total: task.imageCount })}</span>
            <span data-testid="remaining-time">
              {estimate
                ? estimate.kind === 'measured'
                  ? estimate.seconds < 60
                    ? t('details.remaining_seconds', { count: Math.max(1, estimate.seconds) })
                    : t('details.remaining', { count: Math.ceil(estimate.seconds / 60) })
                  : t('details.remaining', { count: estimate.minutes })
                : task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled'
                  ? t(`details.ended.${task.status}`)
                  : '--'}
            </span>
          </div>
          <p className="task-details-status-text" data-testid="status-text">
            {statusText}
          </p>
          {errorText && (
            <Alert
              type="error"
              showIcon
              title={<span title={task.errorMessage ?? undefined}>{errorText}</span>}
              data-testid="task-error"
            />
          )}
        </Block>
      </div>
    </Modal>
  );
}
