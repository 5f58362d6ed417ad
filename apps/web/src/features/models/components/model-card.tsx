import {
  CheckCircleFilled,
  CloseCircleFilled,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  LoadingOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { Button, Card, Collapse, Progress, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatDateTime, formatSizeMb } from '../../../lib/format';
import type { LabModelView } from '../../../lib/lab-models';
import { modelFileUrl } from '../api/models-api';
import { HeldoutOverlays } from './heldout-overlays';
import { ModelMetrics } from './model-metrics';

interface Props {
  model: LabModelView;
  /** null: the user may change models; else why not (a viewer) */
  readOnlyReason: string | undefined;
  onRename: (model: LabModelView) => void;
  onDelete: (model: LabModelView) => void;
  onCancel: (model: LabModelView) => void;
  cancelling: boolean;
}

function StatusTag({ model }: { model: LabModelView }) {
  const { t } = useTranslation('models');
  const known = ['training', 'ready', 'failed', 'cancelled'].includes(model.status);
  const label = known ? t(`status.${model.status}`) : model.status;
  const color =
    model.status === 'ready'
      ? 'success'
      : model.status === 'training'
        ? 'processing'
        : model.status === 'failed'
          ? 'error'
          : 'default';
  const icon =
    model.status === 'ready' ? (
      <CheckCircleFilled />
    ) : model.status === 'training' ? (
      <LoadingOutlined />
    ) : model.status === 'failed' ? (
      <CloseCircleFilled />
    ) : undefined;
  return (
    <Tag color={color} icon={icon} data-testid="model-status" data-status={model.status}>
      {label}
    </Tag>
  );
}

/** One lab model: status (live progress while it trains), what it learned from, its figures and its actions. */
export function ModelCard({ model, readOnlyReason, onRename, onDelete, onCancel, cancelling }: Props) {
  const { t } = useTranslation('models');
  const px = model.labelledPixels;
  const training = model.status === 'training';
  const ready = model.status === 'ready';
  const locked = readOnlyReason !== undefined;
  const guarded = (button: ReactNode) => (locked ? <Tooltip title={readOnlyReason}>{button}</Tooltip> : button);

  return (
    <Card className="model-card" data-testid="model-card" data-model-id={model.id}>
      <header className="model-card-head">
        <Typography.Title level={4} className="model-card-name" data-testid="model-name">
          {model.name}
        </Typography.Title>
        <StatusTag model={model} />
      </header>
      <p className="model-card-meta">
        {t('card.created', { time: formatDateTime(model.createdTime) })}
        {model.createdBy ? ` · ${t('card.by', { user: model.createdBy })}` : ''}
      </p>
      {training && (
        <Progress percent={Math.round(model.progress)} status="active" size="small" data-testid="model-progress" />
      )}
      <dl className="model-card-facts">
        <div>
          <dt>{t('card.photos')}</dt>
          <dd data-testid="model-photos">{formatCount(model.imageCount)}</dd>
        </div>
        <div>
          <dt>{t('card.pixels')}</dt>
          <dd data-testid="model-pixels">
            <span className="px px-background">{t('pixels.background', { n: formatCount(px.background) })}</span>
            <span className="px px-healthy">{t('pixels.healthy', { n: formatCount(px.healthy) })}</span>
            <span className="px px-lesion">{t('pixels.lesion', { n: formatCount(px.lesion) })}</span>
            <span className="px px-excluded">{t('pixels.excluded', { n: formatCount(px.excluded) })}</span>
          </dd>
        </div>
        {model.fileSize !== null && (
          <div>
            <dt>{t('card.file_size')}</dt>
            <dd data-testid="model-file-size">{formatSizeMb(model.fileSize)}</dd>
          </div>
        )}
      </dl>
      {model.status === 'failed' && (
        <Typography.Paragraph type="danger" data-testid="model-error" title={model.errorMessage ?? undefined}>
          {t('card.failed')}
        </Typography.Paragraph>
      )}
      {model.status === 'cancelled' && (
        <Typography.Paragraph type="secondary">{t('card.cancelled')}</Typography.Paragraph>
      )}
      {model.metrics ? (
        <ModelMetrics metrics={model.metrics} />
      ) : ready ? (
        <Typography.Paragraph type="secondary">{t('metrics.none')}</Typography.Paragraph>
      ) : null}
      {ready && (
        <Collapse
          ghost
          size="small"
          className="model-card-heldout"
          items={[
            {
              key: 'heldout',
              label: <span data-testid="model-heldout-toggle">{t('heldout.title')}</span>,
              children: <HeldoutOverlays modelId={model.id} />,
            },
          ]}
        />
      )}
      <div className="model-card-actions">
        {training &&
          guarded(
            <Button
              danger
              icon={<StopOutlined />}
              disabled={locked}
              loading={cancelling}
              onClick={() => onCancel(model)}
              data-testid="model-cancel"
            >
              {t('actions.cancel')}
            </Button>,
          )}
        {ready && (
          <Button icon={<DownloadOutlined />} href={modelFileUrl(model.id)} download data-testid="model-download">
            {t('actions.download')}
          </Button>
        )}
        {guarded(
          <Button icon={<EditOutlined />} disabled={locked} onClick={() => onRename(model)} data-testid="model-rename">
            {t('actions.rename')}
          </Button>,
        )}
        {!training &&
          guarded(
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={locked}
              onClick={() => onDelete(model)}
              data-testid="model-delete"
            >
              {t('actions.delete')}
            </Button>,
          )}
      </div>
    </Card>
  );
}
