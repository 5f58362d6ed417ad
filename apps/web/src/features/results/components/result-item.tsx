import { DownloadOutlined, EyeOutlined, WarningOutlined } from '@ant-design/icons';
import { Skeleton } from 'antd';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultView } from '../../../lib/normalize-result';
import { formatPpd } from '../../../lib/ppd';
import { bandOf } from './severity';

export interface ResultItemProps {
  result: ResultView | undefined;
  index: number;
  selected: boolean;
  onOpen: (index: number) => void;
  onPreview: (index: number) => void;
}

/** The picture a card shows: the result overlay, else the original. */
export const cardImageOf = (r: ResultView) => r.overlayImageUrl ?? r.originalImageUrl;

/** Plain title attributes rather than tooltip components: many cards mount and unmount while scrolling. */
function HoverActions({ result, index, onPreview }: { result: ResultView; index: number; onPreview: (i: number) => void }) {
  const { t } = useTranslation('results');
  const stop = (e: MouseEvent) => e.stopPropagation();
  const href = result.originalImageUrl ?? cardImageOf(result);
  return (
    <span className="result-actions">
      <button
        type="button"
        title={t('card.preview')}
        aria-label={t('card.preview')}
        data-testid="result-preview"
        onClick={(e) => {
          stop(e);
          onPreview(index);
        }}
      >
        <EyeOutlined />
      </button>
      {href && (
        <a href={href} download={result.imageName} title={t('card.download')} aria-label={t('card.download')} onClick={stop}>
          <DownloadOutlined />
        </a>
      )}
    </span>
  );
}

/** A grid card coloured by its PPD band: image, PPD (2 decimals), name; preview and download on hover. */
export function ResultCard({ result, index, selected, onOpen, onPreview }: ResultItemProps) {
  const { t } = useTranslation('results');
  if (!result) {
    return (
      <div className="result-card is-loading">
        <Skeleton.Image active className="result-card-skeleton" />
      </div>
    );
  }
  const band = bandOf(result.ppdValue) ?? 'failed';
  const image = cardImageOf(result);
  return (
    <div
      role="button"
      tabIndex={0}
      className={`result-card band-${band}${selected ? ' is-selected' : ''}`}
      data-testid="result-card"
      data-result-id={result.id}
      onClick={() => onOpen(index)}
      onKeyDown={(e) => e.key === 'Enter' && onOpen(index)}
    >
      <div className="result-card-image">
        {image ? <img src={image} alt={result.imageName} loading="lazy" decoding="async" /> : <WarningOutlined className="result-card-noimage" />}
        <HoverActions result={result} index={index} onPreview={onPreview} />
      </div>
      <div className="result-card-body">
        <span className="result-card-ppd" data-testid="result-ppd">
          {result.ppdValue === null ? t('card.failed') : `PPD ${formatPpd(result.ppdValue)}`}
        </span>
        <span className="result-card-name" title={result.imageName}>
          {result.imageName}
        </span>
      </div>
    </div>
  );
}

/** A list row: adds the sub-image PPD values, prediction and confidence. */
export function ResultRow({ result, index, selected, onOpen, onPreview }: ResultItemProps) {
  const { t } = useTranslation('results');
  if (!result) {
    return (
      <div className="result-row is-loading">
        <Skeleton active paragraph={false} />
      </div>
    );
  }
  const band = bandOf(result.ppdValue) ?? 'failed';
  const image = cardImageOf(result);
  return (
    <div
      role="button"
      tabIndex={0}
      className={`result-row band-${band}${selected ? ' is-selected' : ''}`}
      data-testid="result-row"
      data-result-id={result.id}
      onClick={() => onOpen(index)}
      onKeyDown={(e) => e.key === 'Enter' && onOpen(index)}
    >
      <div className="result-row-thumb">{image && <img src={image} alt="" loading="lazy" decoding="async" />}</div>
      <div className="result-row-name" title={result.imageName}>
        {result.imageName}
      </div>
      <div className="result-row-ppd">{result.ppdValue === null ? t('card.failed') : formatPpd(result.ppdValue)}</div>
      <div className="result-row-sub" data-testid="result-sub-values">
        {result.subPpdValues.length > 0 ? result.subPpdValues.map((v) => v.toFixed(2)).join(' / ') : '--'}
      </div>
      <div className="result-row-prediction" title={result.errorMessage ?? undefined}>
        {result.prediction ? t(`health.${result.prediction}`, { defaultValue: result.prediction }) : (result.errorCode ?? '--')}
      </div>
      {/* A result that was not scored has no confidence to show (the normalised default of 1 is not a measurement). */}
      <div className="result-row-confidence">{result.ppdValue === null ? '--' : `${(result.confidence * 100).toFixed(1)}%`}</div>
      <HoverActions result={result} index={index} onPreview={onPreview} />
    </div>
  );
}
