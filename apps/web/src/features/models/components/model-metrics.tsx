import { Alert } from 'antd';
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
      <div className="model-metrics-caption">{t('metrics.ppd_error_title')}</div>
      <div className="model-compare">
        <div className={`model-compare-item is-lab verdict-${verdict}`}>
          <span>{t('metrics.this_model')}</span>
          <strong data-testid="metric-ppd-mae">{ppdNumber(metrics.ppdMae)}</strong>
        </div>
        <div className="model-compare-item">
          <span>{t('metrics.default_engine')}</span>
          <strong data-testid="metric-baseline-mae">{ppdNumber(metrics.baselinePpdMae)}</strong>
        </div>
      </div>
      {verdict !== 'unknown' && (
        <Alert
          showIcon
          type={verdict === 'better' ? 'success' : verdict === 'worse' ? 'warning' : 'info'}
          title={t(`verdict.${verdict}`)}
          data-testid="model-verdict"
          data-verdict={verdict}
        />
      )}
      <dl className="model-metrics-pixels">
        <div>
          <dt>{t('metrics.pixel_accuracy')}</dt>
          <dd data-testid="metric-pixel-accuracy">{percent(metrics.pixelAccuracy)}</dd>
        </div>
        <div>
          <dt>{t('metrics.lesion_iou')}</dt>
          <dd data-testid="metric-lesion-iou">{percent(metrics.lesionIou)}</dd>
        </div>
      </dl>
    </div>
  );
}
