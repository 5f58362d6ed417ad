import { ExpandOutlined, QuestionCircleFilled } from '@ant-design/icons';
import { Alert, Descriptions, Modal, Spin } from 'antd';
import { VIS_KEYS } from '@cassavascope/contract';
import { useTranslation } from 'react-i18next';
import type { ResultView } from '../../../lib/normalize-result';
import { formatPpd } from '../../../lib/ppd';
import { bandOf, SeverityIcon } from './severity';

interface Props {
  open: boolean;
  result: ResultView | null;
  onClose: () => void;
  onPreview: () => void;
}

function Figure({ src, caption, testId }: { src: string | undefined | null; caption: string; testId: string }) {
  const { t } = useTranslation('results');
  return (
    <figure className="result-figure" data-testid={testId}>
      {src ? <img src={src} alt={caption} loading="lazy" /> : <div className="result-figure-missing">{t('detail.no_image')}</div>}
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** Original, the three cuts, the three prediction images, values, errors and the health assessment. */
export function ResultDetailModal({ open, result, onClose, onPreview }: Props) {
  const { t } = useTranslation('results');
  const band = result ? bandOf(result.ppdValue) : null;
  const cuts = VIS_KEYS.filter((k) => k.startsWith('cut2_'));
  const preds = VIS_KEYS.filter((k) => k.startsWith('pred_'));
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
            <button type="button" className="result-detail-open" onClick={onPreview} data-testid="result-detail-preview">
              {result.originalImageUrl ? <img src={result.originalImageUrl} alt={result.imageName} /> : <div className="result-figure-missing" />}
              <span className="result-detail-expand">
                <ExpandOutlined /> {t('detail.full_screen')}
              </span>
            </button>
            <div className="result-detail-caption">{t('detail.original')}</div>
          </div>
          <div className="result-detail-side">
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'file', label: t('detail.filename'), children: result.imageName },
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
                      {result.subPpdValues.length > 0 ? result.subPpdValues.map((v) => v.toFixed(2)).join(' / ') : '--'}
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
                  children: result.processingTime === null ? '--' : t('detail.seconds', { value: result.processingTime.toFixed(2) }),
                },
              ]}
            />
            {(result.errorCode || result.errorMessage) && (
              <Alert
                type="error"
                showIcon
                className="result-detail-error"
                data-testid="detail-error"
                title={result.errorCode ?? t('detail.error')}
                description={result.errorMessage}
              />
            )}
            <div className={`result-health band-${band ?? 'failed'}`} data-testid="health-assessment">
              <span className="result-health-icon">{band ? <SeverityIcon severity={band} /> : <QuestionCircleFilled />}</span>
              <span>
                <strong>{band ? t(`assessment.${band}`) : t('assessment.unknown')}</strong>
                <small>{band ? t(`assessment.${band}_description`) : t('assessment.unknown_description')}</small>
              </span>
            </div>
          </div>
          <div className="result-detail-strip">
            <h4>{t('detail.cuts')}</h4>
            <div className="result-detail-figures">
              {cuts.map((key, i) => (
                <Figure key={key} testId={`vis-${key}`} src={result.visImages[key]} caption={t('detail.cut', { n: i + 1 })} />
              ))}
            </div>
            <h4>{t('detail.predictions')}</h4>
            <div className="result-detail-figures">
              {preds.map((key, i) => (
                <Figure key={key} testId={`vis-${key}`} src={result.visImages[key]} caption={t('detail.pred', { n: i + 1 })} />
              ))}
            </div>
          </div>
        </div>
      )}
    </Modal>
  );
}
