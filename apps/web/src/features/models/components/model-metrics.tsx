import { Alert, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LabModelMetrics } from '../../../lib/lab-models';
import { percent, ppdNumber, verdictOf } from '../model-verdict';

/**
 * The model's figures on labelled photos it did not train on: its PPD error beside the default engine's, a plain
 * verdict, then pixel accuracy and lesion IoU.
 */
export function ModelMetrics({ metrics }: { metrics: LabModelMetrics }) {
  const { t } = useTranslation('models');
  const verdict = verdictOf(metrics);
  return (
    <div className="model-metrics" data-testid="model-metrics">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={[
          {
            key: 'mae',
            label: t('metrics.ppd_mae'),
            children: <strong data-testid="metric-ppd-mae">{ppdNumber(metrics.ppdMae)}</strong>,
          },
          {
            key: 'baseline',
            label: t('metrics.baseline_ppd_mae'),
            children: <span data-testid="metric-baseline-mae">{ppdNumber(metrics.baselinePpdMae)}</span>,
          },
          {
            key: 'accuracy',
            label: t('metrics.pixel_accuracy'),
            children: <span data-testid="metric-pixel-accuracy">{percent(metrics.pixelAccuracy)}</span>,
          },
          {
            key: 'iou',
            label: t('metrics.lesion_iou'),
            children: <span data-testid="metric-lesion-iou">{percent(metrics.lesionIou)}</span>,
          },
        ]}
      />
      {verdict !== 'unknown' && (
        <Alert
          showIcon
          type={verdict === 'better' ? 'success' : verdict === 'worse' ? 'warning' : 'info'}
          title={t(`verdict.${verdict}`)}
          description={t('verdict.how_measured')}
          data-testid="model-verdict"
          data-verdict={verdict}
        />
      )}
    </div>
  );
}
