import { ExpandOutlined, EyeOutlined, HighlightOutlined, QuestionCircleFilled } from '@ant-design/icons';
import { refusalReasonOf } from '@cassavascope/contract';
import { Alert, Button, Descriptions, Modal, Segmented, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { openLabelPainter } from '../../../lib/label-painter';
import type { ResultView } from '../../../lib/normalize-result';
import { formatPpd } from '../../../lib/ppd';
import { healthHeadline } from '../health-headline';
import { SeverityIcon } from './severity';
import { SpecimenGrid } from './specimen-grid';
import { canDrawOverview, OverviewLegend, SpecimenOverview } from './specimen-overview';
import { ReviewTools } from './review/review-tools';
import { reviewTarget } from './review/review-target';
import { SpecimenReviewActions } from './review/specimen-review-actions';
import { EXPLAINED_FAILURES } from '../failure-codes';

interface Props {
  open: boolean;
  result: ResultView | null;
  onClose: () => void;
  onPreview: () => void;
  /** review: previous/next result of the list and the position in it (keys N / P) */
  review?: {
    onNext?: (() => void) | undefined;
    onPrev?: (() => void) | undefined;
    position?: { current: number; total: number } | undefined;
  };
}

/**
 * The colour the engine draws a box it did not score in (a refused photo's overview): packages/ppd
 * render/visualise.ts `UNSCORED_BOX`, shown in the legend of "What the engine saw".
 */
const ENGINE_SAW_COLOUR = 'rgb(40, 160, 255)';

/** Up to this many sub-image values are listed inline; more are summarised (each is on its specimen below). */
const SUB_VALUES_LISTED = 8;

/** Why an image was not scored: the translated reason and what photo would work, then the engine's own words. */
function FailureExplanation({ result }: { result: ResultView }) {
  const { t, i18n } = useTranslation('results');
  // The engine's own words are English: shown in the English UI; in another language the translated reason and
  // hint say it, and the English stays on hover of the code (issue 15 item 16).
  const code = result.errorCode;
  const key = code && EXPLAINED_FAILURES.has(code) ? code : 'other';
  // A refusal names its reason in the engine's words: shown translated in every language (issue 25).
  const reason = code === 'not_a_specimen_photo' ? refusalReasonOf(result.errorMessage) : null;
  const engineWords = i18n.language === 'en' && !reason ? result.errorMessage : null;
  return (
    <Alert
      type="error"
      showIcon
      className="result-detail-error"
      data-testid="detail-error"
      title={
        // The code itself (`not_a_specimen_photo`) is for the API, never shown: the translated title says it.
        <span className="result-failure-title" data-code={code ?? undefined}>
          <span data-testid="detail-error-title">{t(`failure.${key}.title`)}</span>
        </span>
      }
      description={
        <div className="result-failure-body">
          {reason && (
            <p className="result-failure-reason" data-testid="detail-error-reason">
              <strong>{t('failure.seen')}:</strong> {t(`failure.reason.${reason}`)}
            </p>
          )}
          <p data-testid="detail-error-hint">{t(`failure.${key}.hint`)}</p>
          {engineWords && (
            <p className="result-failure-message" data-testid="detail-error-message">
              <span>{t('detail.engine_message')}:</span> {engineWords}
            </p>
          )}
        </div>
      }
    />
  );
}

/**
 * The health headline: the photo's band, or for a photo of several specimens how many are in each band (drawn in
 * the worst) and that the photo's PPD is their mean.
 */
function HealthAssessment({ result }: { result: ResultView }) {
  const { t } = useTranslation('results');
  const headline = healthHeadline(t, result.ppdValue, result.subPpdValues);
  return (
    <div className={`result-health band-${headline.band ?? 'failed'}`} data-testid="health-assessment">
      <span className="result-health-icon">
        {headline.band ? <SeverityIcon severity={headline.band} /> : <QuestionCircleFilled />}
      </span>
      <span>
        <strong data-testid="health-title">{headline.title}</strong>
        <small data-testid="health-description">{headline.description}</small>
      </span>
    </div>
  );
}

/**
 * Original, values, the health assessment, then every specimen (its cut and lesion images, number, kind, PPD,
 * confidence, review state); a failed image instead says why, what photo would work, and what the engine saw.
 */
export function ResultDetailModal({ open, result, onClose, onPreview, review }: Props) {
  const { t } = useTranslation('results');
  const { can } = useCan();
  // The specimen picked for the keys (a box or card clicked, or where the keys moved), per result.
  const [picked, setPicked] = useState<{ resultId: number; index: number | null } | null>(null);
  const pickedIndex = result && picked?.resultId === result.id ? picked.index : null;
  const pick = (index: number | null) => result && setPicked({ resultId: result.id, index });
  const target = can('change') ? reviewTarget(result, pickedIndex) : null;
  // The numbered overview first (issue 25); the plain original one click away.
  const [layer, setLayer] = useState<'numbered' | 'original'>('numbered');
  const failed = result !== null && (result.errorCode !== null || result.errorMessage !== null);
  return (
    <Modal
      open={open}
      width={960}
      footer={null}
      onCancel={onClose}
      title={result?.imageName ?? t('detail.title')}
      className="result-detail-modal"
    >
      {!result ? (
        <div className="result-detail-loading">
          <Spin />
        </div>
      ) : (
        <div className="result-detail" data-testid="result-detail">
          <div className="result-detail-original">
            {!failed && canDrawOverview(result) ? (
              <Segmented<'numbered' | 'original'>
                size="small"
                className="result-detail-layer"
                value={layer}
                onChange={setLayer}
                data-testid="detail-layer"
                options={[
                  { value: 'numbered', label: t('detail.numbered') },
                  { value: 'original', label: t('detail.original') },
                ]}
              />
            ) : null}
            {!failed && canDrawOverview(result) && layer === 'numbered' ? (
              <>
                <SpecimenOverview
                  result={result}
                  onPreview={onPreview}
                  onPick={can('change') ? pick : undefined}
                  picked={target?.index ?? null}
                />
                <OverviewLegend />
              </>
            ) : (
              <>
                <button
                  type="button"
                  className="result-detail-open"
                  onClick={onPreview}
                  data-testid="result-detail-preview"
                >
                  {result.originalImageUrl ? (
                    <img src={result.originalImageUrl} alt={result.imageName} />
                  ) : (
                    <div className="result-figure-missing" />
                  )}
                  <span className="result-detail-expand">
                    <ExpandOutlined /> {t('detail.full_screen')}
                  </span>
                </button>
                <div className="result-detail-caption">{t('detail.original')}</div>
              </>
            )}
            {result.imageId !== null && result.originalImageUrl ? (
              <Button
                size="small"
                icon={<HighlightOutlined />}
                className="result-detail-labels"
                data-testid="result-paint-labels"
                onClick={() =>
                  openLabelPainter({
                    imageId: result.imageId!,
                    name: result.imageName,
                    url: result.originalImageUrl!,
                  })
                }
              >
                {can('change') ? t('labels:open') : t('labels:open_view')}
              </Button>
            ) : null}
          </div>
          <div className="result-detail-side">
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'file', label: t('detail.filename'), children: result.imageName },
                {
                  key: 'model',
                  label: t('detail.model'),
                  children: (
                    <span data-testid="detail-model">
                      {result.model ? t('detail.lab_model', { name: result.model.name }) : t('detail.model_default')}
                    </span>
                  ),
                },
                {
                  key: 'ppd',
                  label: t('detail.ppd'),
                  children: <strong data-testid="detail-ppd">{formatPpd(result.ppdValue)}</strong>,
                },
                {
                  key: 'sub',
                  label: t('detail.sub_values'),
                  children: (
                    <span data-testid="detail-sub-values">
                      {result.subPpdValues.length === 0
                        ? '--'
                        : result.subPpdValues.length <= SUB_VALUES_LISTED
                          ? result.subPpdValues.map((v) => v.toFixed(2)).join(' / ')
                          : t('detail.sub_values_summary', {
                              count: result.subPpdValues.length,
                              min: Math.min(...result.subPpdValues).toFixed(2),
                              max: Math.max(...result.subPpdValues).toFixed(2),
                            })}
                    </span>
                  ),
                },
                {
                  key: 'confidence',
                  label: t('detail.confidence'),
                  children: result.ppdValue === null ? '--' : `${(result.confidence * 100).toFixed(1)}%`,
                },
                {
                  key: 'time',
                  label: t('detail.processing_time'),
                  children:
                    result.processingTime === null
                      ? '--'
                      : t('detail.seconds', { value: result.processingTime.toFixed(2) }),
                },
              ]}
            />
            {result.needsReview && (
              <Tag
                color="orange"
                icon={<EyeOutlined />}
                className="result-detail-review"
                data-testid="detail-needs-review"
              >
                {t('card.needs_review')}
              </Tag>
            )}
            {failed && <FailureExplanation result={result} />}
            <HealthAssessment result={result} />
            {open && (
              <ReviewTools
                result={result}
                onNext={review?.onNext}
                onPrev={review?.onPrev}
                position={review?.position}
                picked={pickedIndex}
                onPick={pick}
              />
            )}
          </div>
          <div className="result-detail-strip">
            {failed ? (
              result.overlayImageUrl && (
                <figure className="result-detail-overview" data-testid="detail-overview">
                  <h4>{t('detail.overview')}</h4>
                  <img src={result.overlayImageUrl} alt={t('detail.overview')} loading="lazy" />
                  <figcaption className="overview-legend" data-testid="engine-saw-legend">
                    <span className="overview-legend-item">
                      <i style={{ borderColor: ENGINE_SAW_COLOUR }} aria-hidden="true" />
                      {t('detail.saw_legend.box')}
                    </span>
                    <span className="overview-legend-order">{t('detail.saw_legend.none_scored')}</span>
                  </figcaption>
                </figure>
              )
            ) : (
              <SpecimenGrid
                key={result.id}
                specimens={result.specimens}
                onPick={can('change') ? pick : undefined}
                renderActions={(s) => (
                  <SpecimenReviewActions result={result} specimen={s} target={s.index === target?.index} />
                )}
              />
            )}
          </div>
        </div>
      )}
    </Modal>
  );
}
