import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { Modal, Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSizeMb } from '../../../lib/format';
import type { UploadItem, UploadSheet } from '../hooks/use-upload';
import { uploadTotals } from '../upload-totals';
import { UploadSheetReport } from './upload-sheet-report';

/** The whole upload at a glance: files and bytes done of the total, speed and time left. */
function UploadSummary({ items, startedAt }: { items: UploadItem[]; startedAt: number | null }) {
  const { t } = useTranslation('images');
  const busy = items.some((i) => i.status === 'uploading');
  // A clock of its own while busy: the speed falls when the bytes stall, without waiting for a progress event.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [busy]);
  // The files the browser sends: a ZIP's entries (listed below it when they failed) are inside the archive.
  const sent = items.filter((i) => !i.entry);
  const totals = uploadTotals(sent, startedAt, busy ? now : Date.now());
  // Once done, a file that failed or was skipped is counted as such: never "17 / 17" beside a failure.
  const failed = sent.filter((i) => i.status === 'error').length;
  const skipped = sent.filter((i) => i.status === 'skipped').length;
  const stored = sent.filter((i) => i.status === 'completed').length;
  const outcome = !busy && (failed > 0 || skipped > 0);
  const percent =
    totals.bytes > 0
      ? Math.floor((totals.bytesDone / totals.bytes) * 100)
      : totals.files > 0
        ? Math.floor((totals.filesDone / totals.files) * 100)
        : 0;
  return (
    <div className="upload-summary" data-testid="upload-summary">
      <div className="upload-summary-figures">
        <span data-testid="upload-summary-files">
          {outcome
            ? t('upload_summary.stored', { stored, count: totals.files })
            : t('upload_summary.files', { done: totals.filesDone, count: totals.files })}
        </span>
        {outcome && failed > 0 ? (
          <span className="upload-summary-failed" data-testid="upload-summary-failed">
            {t('upload_summary.failed', { count: failed })}
          </span>
        ) : null}
        {outcome && skipped > 0 ? (
          <span className="upload-summary-skipped" data-testid="upload-summary-skipped">
            {t('upload_summary.skipped', { count: skipped })}
          </span>
        ) : null}
        <span data-testid="upload-summary-bytes">
          {t('upload_summary.bytes', { done: formatSizeMb(totals.bytesDone), total: formatSizeMb(totals.bytes) })}
        </span>
        {busy && totals.speed !== null ? (
          <>
            <span data-testid="upload-summary-speed">
              {t('upload_summary.speed', { value: formatSizeMb(totals.speed) })}
            </span>
            {totals.secondsLeft !== null && (
              <span data-testid="upload-summary-left">
                {totals.secondsLeft < 60
                  ? t('upload_summary.left_seconds', { count: totals.secondsLeft })
                  : t('upload_summary.left_minutes', { count: Math.ceil(totals.secondsLeft / 60) })}
              </span>
            )}
          </>
        ) : null}
      </div>
      <Progress
        percent={Math.min(100, percent)}
        status={busy ? 'active' : failed > 0 ? 'exception' : 'normal'}
        showInfo={false}
      />
    </div>
  );
}

/** The order of the rows once an upload is done: what needs attention first. */
const OUTCOME_ORDER: Record<UploadItem['status'], number> = { error: 0, skipped: 1, completed: 2, uploading: 3 };

/** Ant Design's warning colour: a skipped duplicate is neither a success nor a failure. */
const SKIPPED_COLOUR = '#d48806';

/**
 * One row per file: name, real progress, and its state (uploading, completed, error with the reason); then the
 * sheet given with the upload, if any, and its per-row report.
 */
export function UploadProgressDialog({
  open,
  items,
  startedAt,
  onClose,
  sheet = null,
  onApplyGoodRows = () => undefined,
}: {
  open: boolean;
  items: UploadItem[];
  startedAt: number | null;
  onClose: () => void;
  sheet?: UploadSheet | null;
  onApplyGoodRows?: () => void;
}) {
  const { t } = useTranslation('images');
  const busy = items.some((i) => i.status === 'uploading') || sheet?.state === 'waiting' || sheet?.state === 'applying';
  // Once the files are in, the ones that failed come first, then the skipped ones (a ZIP's failed entries stay
  // under their archive).
  const shown =
    items.some((i) => i.status === 'uploading') || items.some((i) => i.entry)
      ? items
      : [...items].sort((a, b) => OUTCOME_ORDER[a.status] - OUTCOME_ORDER[b.status]);
  return (
    <Modal
      open={open}
      title={t('upload_progress')}
      // A sheet's report is a table: a little more room for it.
      width={sheet?.state === 'done' ? 640 : undefined}
      footer={null}
      closable={!busy}
      mask={{ closable: !busy }}
      onCancel={onClose}
    >
      {/* The totals for many files or an archive; one picture's own row says it all. */}
      {items.filter((i) => !i.entry).length > 1 ||
      items.some((i) => !i.entry && i.fileName.toLowerCase().endsWith('.zip')) ? (
        <UploadSummary items={items} startedAt={startedAt} />
      ) : null}
      <div className="upload-progress-list" data-testid="upload-progress">
        {shown.map((item, i) => (
          <div
            className="upload-progress-item"
            key={`${item.fileName}-${i}`}
            data-testid="upload-item"
            data-status={item.status}
          >
            <div className="upload-progress-head">
              {item.status === 'completed' ? (
                <CheckCircleFilled style={{ color: '#389e0d' }} />
              ) : item.status === 'skipped' ? (
                <ExclamationCircleFilled style={{ color: SKIPPED_COLOUR }} />
              ) : item.status === 'error' ? (
                <CloseCircleFilled style={{ color: '#cf1322' }} />
              ) : (
                <LoadingOutlined />
              )}
              <Typography.Text ellipsis className="upload-progress-name">
                {item.fileName}
              </Typography.Text>
              <Typography.Text type="secondary">{t(`status.${item.status}`)}</Typography.Text>
            </div>
            <Progress
              percent={item.progress}
              size="small"
              status={
                item.status === 'error'
                  ? 'exception'
                  : item.status === 'completed'
                    ? 'success'
                    : item.status === 'skipped'
                      ? 'normal'
                      : 'active'
              }
              strokeColor={item.status === 'skipped' ? SKIPPED_COLOUR : undefined}
              format={
                item.status === 'skipped'
                  ? () => <ExclamationCircleFilled style={{ color: SKIPPED_COLOUR }} />
                  : undefined
              }
            />
            {item.note ? (
              <Typography.Text
                type={item.status === 'error' ? 'danger' : item.status === 'skipped' ? 'warning' : 'secondary'}
                className="upload-progress-note"
              >
                {item.note}
              </Typography.Text>
            ) : null}
          </div>
        ))}
      </div>
      {sheet ? <UploadSheetReport sheet={sheet} onApplyGoodRows={onApplyGoodRows} /> : null}
    </Modal>
  );
}
