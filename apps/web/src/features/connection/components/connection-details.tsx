import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { Card, Descriptions, List, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { engineLabelText } from '../../../lib/model-label';
import type { ConnectionStatus } from '../api/get-server-status';
import { uptimeParts } from '../uptime';
import { StorageCheckCard } from './storage-check-card';

/** Backend values the server reports (database, storage, queue) with a text of their own; others show as sent. */
const BACKEND_VALUES: Record<'database' | 'storage' | 'queue', readonly string[]> = {
  database: ['sqlite', 'postgres'],
  storage: ['local', 's3'],
  queue: ['embedded', 'pg-boss'],
};

/** Disk sizes in GB with one decimal (free space is read at a glance). */
function gigabytes(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** On success: the server's real status and the endpoint list, each marked from the server's own check. */
export function ConnectionDetails({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation('connection');
  const uptime = status.uptimeSeconds === null ? null : uptimeParts(status.uptimeSeconds);
  const backend = (kind: keyof typeof BACKEND_VALUES, value: string | null) => {
    if (!value) return '--';
    const known = value.trim().toLowerCase();
    return BACKEND_VALUES[kind].includes(known) ? t(`backends.${kind}.${known}`) : value;
  };
  return (
    <div className="connection-details">
      <Card size="small" title={t('details.title')} className="connection-card" data-testid="connection-status">
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2 }}
          items={[
            {
              key: 'status',
              label: t('details.status'),
              children: (
                <Tag color={status.status === 'online' ? 'success' : 'warning'}>
                  {status.status === 'online' ? t('details.online') : status.status}
                </Tag>
              ),
            },
            {
              key: 'images',
              label: t('details.image_count'),
              children: <span data-testid="status-images">{status.imageCount ?? '--'}</span>,
            },
            {
              key: 'tasks',
              label: t('details.task_count'),
              children: <span data-testid="status-tasks">{status.taskCount ?? '--'}</span>,
            },
            {
              key: 'version',
              label: t('details.version'),
              children: <span data-testid="status-version">{status.version ?? '--'}</span>,
            },
            { key: 'uptime', label: t('details.uptime'), children: uptime ? t(`uptime.${uptime.unit}`, uptime) : '--' },
            { key: 'time', label: t('details.server_time'), children: formatDateTime(status.serverTime) },
            { key: 'latency', label: t('details.latency'), children: t('details.ms', { value: status.latencyMs }) },
            {
              key: 'engine',
              label: t('details.engine'),
              children: (
                <span data-testid="status-engine">
                  {status.engineLabel ? engineLabelText(status.engineLabel, t) : '--'}
                </span>
              ),
            },
            {
              key: 'database',
              label: t('details.database'),
              children: <span data-testid="status-database">{backend('database', status.database)}</span>,
            },
            {
              key: 'storage',
              label: t('details.storage'),
              children: <span data-testid="status-storage">{backend('storage', status.storage)}</span>,
            },
            {
              key: 'queue',
              label: t('details.queue'),
              children: <span data-testid="status-queue">{backend('queue', status.queue)}</span>,
            },
            {
              key: 'disk',
              label: t('details.disk'),
              children: (
                <span data-testid="status-disk" data-low={status.disk?.low ?? false}>
                  {status.disk
                    ? t('details.disk_value', {
                        free: gigabytes(status.disk.freeBytes),
                        total: gigabytes(status.disk.totalBytes),
                      })
                    : '--'}
                  {status.disk?.low ? (
                    <Tag color="warning" className="connection-disk-low">
                      {t('details.disk_low')}
                    </Tag>
                  ) : null}
                </span>
              ),
            },
          ]}
        />
      </Card>
      {status.storageCheck && <StorageCheckCard summary={status.storageCheck} />}
      <Card size="small" title={t('endpoints.title')} className="connection-card" data-testid="connection-endpoints">
        <List
          size="small"
          dataSource={status.endpoints}
          renderItem={(endpoint) => (
            <List.Item data-testid="endpoint" data-ok={endpoint.ok}>
              <code>{endpoint.path}</code>
              {endpoint.ok ? (
                <Tag color="success" icon={<CheckCircleFilled />}>
                  {t('endpoints.normal')}
                </Tag>
              ) : (
                <Tag color="error" icon={<CloseCircleFilled />}>
                  {t('endpoints.failing')}
                </Tag>
              )}
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}
