import { ClockCircleOutlined, RocketOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { estimatedSeconds } from '../estimate';

interface Props {
  imageCount: number;
  folderCount: number;
  estimatedImages: number;
  modelLabel: string | null;
  /** this server's measured seconds per image; null until it has finished a task (the seed's 0.3 s then) */
  secondsPerImage: number | null;
  creating: boolean;
  onCreate: () => void;
}

/** Summary: selected, estimated images, mode, model, estimated time, and the create-task button. */
export function SummaryPanel({
  imageCount,
  folderCount,
  estimatedImages,
  modelLabel,
  secondsPerImage,
  creating,
  onCreate,
}: Props) {
  const { t } = useTranslation('prediction');
  const { can, reason } = useCan();
  return (
    <Card className="prediction-card prediction-summary" title={t('summary.title')} data-testid="prediction-summary">
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'selected',
            label: t('summary.selected'),
            children: t('summary.selected_value', {
              images: t('summary.selected_images', { count: imageCount }),
              folders: t('summary.selected_folders', { count: folderCount }),
            }),
          },
          {
            key: 'images',
            label: t('summary.estimated_images'),
            children: <span data-testid="estimated-images">{estimatedImages}</span>,
          },
          { key: 'mode', label: t('summary.mode'), children: t('config.mode_single') },
          { key: 'model', label: t('summary.model'), children: modelLabel ?? '--' },
          {
            key: 'time',
            label: t('summary.estimated_time'),
            children: (
              <span data-testid="estimated-time">
                <ClockCircleOutlined />{' '}
                {t('summary.seconds', { count: estimatedSeconds(estimatedImages, secondsPerImage) })}
                <small className="prediction-estimate-basis" data-testid="estimate-basis">
                  {secondsPerImage === null
                    ? t('summary.estimate_default')
                    : t('summary.estimate_measured', { value: secondsPerImage.toFixed(2) })}
                </small>
              </span>
            ),
          },
        ]}
      />
      <Tooltip title={reason('change')}>
        <Button
          type="primary"
          size="large"
          block
          icon={<RocketOutlined />}
          loading={creating}
          disabled={!can('change')}
          onClick={onCreate}
          data-testid="create-task"
        >
          {t('summary.create')}
        </Button>
      </Tooltip>
    </Card>
  );
}
