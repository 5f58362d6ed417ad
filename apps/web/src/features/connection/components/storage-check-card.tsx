import { CheckCircleFilled, SafetyCertificateOutlined, WarningFilled } from '@ant-design/icons';
import type { StorageProblem } from '@cassavascope/contract';
import { Alert, Button, Card, List, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth';
import { errorMessage } from '../../../lib/error-message';
import { formatDateTime } from '../../../lib/format';
import type { StorageCheckState } from '../api/get-server-status';
import { useStartStorageCheck, useStorageCheck } from '../api/storage-check';
import './storage-check-card.css';

/** The operator's command, the same in every language (so it is no text to translate). */
const CHECK_COMMAND = 'npm run check-storage';

const KIND_COLOUR = { missing: 'error', corrupt: 'error', untracked: 'warning' } as const;

/**
 * The last check of every stored file against the database (issue 26): when it ran, what it found, its first
 * problems, and "Check now" for an admin. `summary` is `/status/`'s; the details come from `/storage-check/`.
 */
export function StorageCheckCard({ summary }: { summary: StorageCheckState }) {
  const { t } = useTranslation('connection');
  const { can, reason } = useCan();
  const details = useStorageCheck(true);
  const start = useStartStorageCheck();
  const d = details.data;
  // The details are newer when present (they follow a running check); else what /status/ said.
  const state: StorageCheckState = d
    ? {
        checkedAt: d.checked_at,
        missing: d.missing,
        corrupt: d.corrupt,
        untracked: d.untracked,
        files: d.files,
        running: d.running,
        error: d.error,
      }
    : summary;
  const running = state.running || start.isPending;
  const wrong = state.missing + state.corrupt + state.untracked;
  const problems = d?.problems ?? [];
  const startError =
    start.error instanceof ApiError && start.error.code === 'storage_check_running'
      ? t('storage_check.already_running')
      : start.error
        ? errorMessage(t, start.error, 'connection:storage_check.start_failed')
        : null;

  const [tone, icon, text] =
    state.checkedAt === null
      ? ['', null, t('storage_check.never')]
      : state.error
        ? ['storage-check-bad', <WarningFilled key="i" />, t('storage_check.failed')]
        : wrong === 0
          ? ['storage-check-good', <CheckCircleFilled key="i" />, t('storage_check.ok', { count: state.files })]
          : ['storage-check-bad', <WarningFilled key="i" />, t('storage_check.found')];
  const headline = (
    <strong className={`storage-check-headline ${tone}`}>
      {icon}
      <span data-testid="storage-check-state">{text}</span>
    </strong>
  );

  return (
    <Card
      size="small"
      className="connection-card storage-check-card"
      data-testid="connection-storage-check"
      data-state={state.checkedAt === null ? 'never' : state.error ? 'failed' : wrong > 0 ? 'problems' : 'ok'}
      data-running={running}
      title={
        <span>
          <SafetyCertificateOutlined /> {t('storage_check.title')}
        </span>
      }
      extra={
        <Tooltip title={reason('check_storage')}>
          <Button
            size="small"
            onClick={() => start.mutate()}
            disabled={running || !can('check_storage')}
            loading={running}
            data-testid="storage-check-start"
          >
            {running ? t('storage_check.running') : t('storage_check.check_now')}
          </Button>
        </Tooltip>
      }
    >
      <Space orientation="vertical" size={8} className="storage-check-body">
        {headline}
        {state.checkedAt !== null && (
          <span className="storage-check-when" data-testid="storage-check-when">
            {t('storage_check.checked_at', { when: formatDateTime(state.checkedAt) })}
          </span>
        )}
        {state.checkedAt === null && d && (
          <span className="storage-check-when">
            {d.interval_hours > 0
              ? t('storage_check.schedule', { hours: d.interval_hours })
              : t('storage_check.schedule_off')}
          </span>
        )}
        {wrong > 0 && (
          <Space size={4} wrap data-testid="storage-check-counts">
            {(['missing', 'corrupt', 'untracked'] as const)
              .filter((k) => state[k] > 0)
              .map((k) => (
                <Tag key={k} color={KIND_COLOUR[k]} data-testid={`storage-check-${k}`}>
                  {t(`storage_check.count.${k}`, { count: state[k] })}
                </Tag>
              ))}
          </Space>
        )}
        {state.error && (
          <Typography.Text type="secondary" className="storage-check-error">
            {t('storage_check.failed_hint')} <code>{state.error}</code>
          </Typography.Text>
        )}
        {problems.length > 0 && (
          <>
            <Typography.Text type="secondary">{t('storage_check.legend')}</Typography.Text>
            <List
              size="small"
              className="storage-check-problems"
              dataSource={problems}
              renderItem={(p) => <ProblemRow problem={p} />}
            />
            {wrong > problems.length && (
              <Typography.Text type="secondary" data-testid="storage-check-more">
                {t('storage_check.more', { count: wrong - problems.length, command: CHECK_COMMAND })}
              </Typography.Text>
            )}
          </>
        )}
        {startError && <Alert type="warning" showIcon title={startError} data-testid="storage-check-error" />}
      </Space>
    </Card>
  );
}

function ProblemRow({ problem: p }: { problem: StorageProblem }) {
  const { t } = useTranslation('connection');
  const owner =
    p.id === null
      ? t('storage_check.owner.none')
      : t(`storage_check.owner.${p.file}`, { id: p.id }) + (p.name ? ` · ${p.name}` : '');
  return (
    <List.Item data-testid="storage-check-problem" data-kind={p.kind} data-key={p.key}>
      <div className="storage-check-problem">
        <Tag color={KIND_COLOUR[p.kind]}>{t(`storage_check.kind.${p.kind}`)}</Tag>
        <span className="storage-check-owner">{owner}</span>
        <code className="storage-check-key">{p.key}</code>
      </div>
    </List.Item>
  );
}
