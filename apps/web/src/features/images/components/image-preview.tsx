import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import type { ImageItem } from '../../../lib/normalize-image';
import { PpdBadge } from './ppd-badge';

interface Props {
  /** The loaded images (the server pages in so far). */
  images: ImageItem[];
  /** All images matching the filter, loaded or not (the counter's denominator). */
  total: number;
  /** More pages exist: "next" on the last loaded image loads the next page instead of wrapping. */
  hasMore: boolean;
  onLoadMore: () => void;
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/** Full-screen preview: previous/next wrap around, position counter, details; Esc closes, arrows navigate. */
export function ImagePreview({ images, total, hasMore, onLoadMore, index, onIndexChange, onClose }: Props) {
  const { t } = useTranslation('images');
  const open = index !== null && images.length > 0;
  const count = images.length;
  const current = open ? images[Math.min(index, count - 1)] : undefined;
  const [waitingFor, setWaitingFor] = useState<number | null>(null);

  // Wrap-around once everything is loaded; before that, "next" past the loaded end fetches the next page.
  const goNext = useCallback(() => {
    if (index === null) return;
    if (index + 1 < count) onIndexChange(index + 1);
    else if (hasMore) {
      setWaitingFor(index + 1);
      onLoadMore();
    } else onIndexChange(0);
  }, [index, count, hasMore, onIndexChange, onLoadMore]);
  const goPrev = useCallback(() => {
    if (index !== null) onIndexChange((index - 1 + count) % count);
  }, [index, count, onIndexChange]);

  useEffect(() => {
    if (waitingFor !== null && waitingFor < count) {
      onIndexChange(waitingFor);
      setWaitingFor(null);
    }
  }, [waitingFor, count, onIndexChange]);

  useEffect(() => {
    if (!open || index === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') goPrev();
      else if (e.key === 'ArrowRight') goNext();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      window.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [open, index, goPrev, goNext, onClose]);

  if (!open || index === null || !current) return null;
  const prev = goPrev;
  const next = goNext;

  return createPortal(
    <div className="image-preview" role="dialog" aria-modal="true" aria-label={current.name} data-testid="image-preview">
      <div className="image-preview-top">
        <span className="image-preview-counter" data-testid="preview-counter">
          {index + 1} / {Math.max(total, count)}
        </span>
        <span className="image-preview-name" data-testid="preview-name">
          {current.name}
        </span>
        <Button type="text" className="image-preview-close" icon={<CloseOutlined />} aria-label={t('close')} onClick={onClose} />
      </div>
      <div className="image-preview-stage">
        <Button shape="circle" size="large" className="image-preview-nav" icon={<LeftOutlined />} aria-label={t('previous')} onClick={prev} />
        <img key={current.id} src={current.url} alt={current.name} />
        <Button shape="circle" size="large" className="image-preview-nav" icon={<RightOutlined />} aria-label={t('next')} onClick={next} />
      </div>
      <dl className="image-preview-info">
        <div>
          <dt>{t('size')}</dt>
          <dd>{formatSizeMb(current.size)}</dd>
        </div>
        <div>
          <dt>{t('format')}</dt>
          <dd>{current.format ? current.format.toUpperCase() : '--'}</dd>
        </div>
        <div>
          <dt>{t('upload_date')}</dt>
          <dd>{formatDateTime(current.uploadDate ?? current.createdTime)}</dd>
        </div>
        <div>
          <dt>{t('ppd_value')}</dt>
          <dd>
            <PpdBadge value={current.ppdValue} hasPPD={current.hasPPD} />
          </dd>
        </div>
        <div>
          <dt>{t('last_prediction')}</dt>
          <dd data-testid="preview-prediction">
            {current.lastPrediction
              ? t(`prediction_label.${current.lastPrediction}`, { defaultValue: current.lastPrediction })
              : t('no_prediction')}
          </dd>
        </div>
      </dl>
    </div>,
    document.body,
  );
}
