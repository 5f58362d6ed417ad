import { Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { resolveMediaUrl } from '../../../lib/normalize-result';
import { useImageNames, useLabModel } from '../api/models-api';
import { ppdNumber } from '../model-verdict';

/**
 * Before / after on the labelled photos the model did not train on: the default engine's lesion overlay beside
 * the lab model's, with the PPD of the labels, of each, so a lab sees where its model reads better or worse.
 */
export function HeldoutOverlays({ modelId }: { modelId: number }) {
  const { t } = useTranslation('models');
  const model = useLabModel(modelId);
  const rows = model.data?.heldout ?? [];
  const names = useImageNames(rows.flatMap((r) => (r.imageId === null ? [] : [r.imageId])));
  if (model.isLoading) return <Spin size="small" />;
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('heldout.none')} />;
  return (
    <div className="model-heldout" data-testid="model-heldout">
      {rows.map((row, i) => {
        const baseline = resolveMediaUrl(row.baselineOverlayUrl);
        const lab = resolveMediaUrl(row.modelOverlayUrl);
        return (
          <section key={`${row.imageId ?? 'x'}-${i}`} className="model-heldout-row">
            <h5>
              <span className="model-heldout-name">
                {(row.imageId !== null && names.get(row.imageId)) || t('heldout.photo', { id: row.imageId ?? '?' })}
              </span>
              <span>{t('heldout.labels_ppd', { value: ppdNumber(row.labelsPpd) })}</span>
            </h5>
            <div className="model-heldout-pair">
              <figure>
                {baseline ? <img src={baseline} alt={t('heldout.default')} loading="lazy" /> : <div />}
                <figcaption>
                  {t('heldout.default')}: <strong>{ppdNumber(row.baselinePpd)}</strong>
                </figcaption>
              </figure>
              <figure>
                {lab ? <img src={lab} alt={t('heldout.lab')} loading="lazy" /> : <div />}
                <figcaption>
                  {t('heldout.lab')}: <strong>{ppdNumber(row.modelPpd)}</strong>
                </figcaption>
              </figure>
            </div>
          </section>
        );
      })}
    </div>
  );
}
