import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { Modal, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UploadItem } from '../hooks/use-upload';

/** Ant Design's warning colour: a skipped duplicate is neither a success nor a failure. */
const SKIPPED_COLOUR = '#d48806';

/** One row per file: name, real progress, and its state (uploading, completed, error with the reason). */
export function UploadProgressDialog({ open, items, onClose }: { open: boolean; items: UploadItem[]; onClose: () => void }) {
  const { t } = useTranslation('images');
  const busy = items.some((i) => i.status === 'uploading');
  return (
    <Modal open={open} title={t('upload_progress')} footer={null} closable={!busy} mask={{ closable: !busy }} onCancel={onClose}>
      <div className="upload-progress-list" data-testid="upload-progress">
        {items.map((item, i) => (
          <div className="upload-progress-item" key={`${item.fileName}-${i}`} data-testid="upload-item" data-status={item.status}>
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
              status={item.status === 'error' ? 'exception' : item.status === 'completed' ? 'success' : item.status === 'skipped' ? 'normal' : 'active'}
              strokeColor={item.status === 'skipped' ? SKIPPED_COLOUR : undefined}
              format={item.status === 'skipped' ? () => <ExclamationCircleFilled style={{ color: SKIPPED_COLOUR }} /> : undefined}
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
    </Modal>
  );
}
