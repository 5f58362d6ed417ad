import { CloseOutlined, HighlightOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import { openLabelPainter } from '../../../lib/label-painter';
import type { ImageItem } from '../../../lib/normalize-image';
import { useImageAt, type ImageListParams } from '../api/list-images';
import { PpdBadge } from './ppd-badge';
import { ReviewedNote, shownPpd } from './reviewed-note';

interface Props {
  /** The loaded images (the server pages in so far). */
  images: ImageItem[];
  /** All images matching the filter, loaded or not (the counter's denominator, and where wrap-around turns). */
  total: number;
  /** The grid's filter and order: an image beyond the loaded ones is fetched with them. */
  params: ImageListParams;
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * Full-screen preview: previous/next wrap around over every image of the filter (previous from the first goes to
 * the true last one, loaded on demand; next from the last goes to the first), position counter, details; Esc
 * closes, arrows navigate.
 */
export function ImagePreview({ images, total, params, index, onIndexChange, onClose }: Props) {
  const { t } = useTranslation('images');
  const { can } = useCan();
  const count = Math.max(total, images.length);
  const open = index !== null && count > 0;
  const position = open ? Math.min(index, count - 1) : null;
  const { image, loading } = useImageAt(params, position, images);
  // While an image beyond the loaded ones arrives, the previous one stays on screen under a spinner.
  const lastShown = useRef<ImageItem | undefined>(undefined);
  if (image) lastShown.current = image;
  if (!open) lastShown.current = undefined;
  const current = image ?? lastShown.current;

  const goNext = useCallback(() => {
    if (position !== null) onIndexChange((position + 1) % count);
  }, [position, count, onIndexChange]);
  const goPrev = useCallback(() => {
    if (position !== null) onIndexChange((position - 1 + count) % count);
  }, [position, count, onIndexChange]);

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

  if (!open || position === null) return null;
  const prev = goPrev;
  const next = goNext;

  return createPortal(
    <div
      className="image-preview"
      role="dialog"
      aria-modal="true"
      aria-label={current?.name}
      data-testid="image-preview"
    >
      <div className="image-preview-top">
        <span className="image-preview-counter" data-testid="preview-counter">
          {position + 1} / {count}
        </span>
        <span className="image-preview-name" data-testid="preview-name">
          {image?.name ?? ''}
        </span>
        {image ? (
          <Button
            className="image-preview-labels"
            icon={<HighlightOutlined />}
            data-testid="preview-paint-labels"
            onClick={() => openLabelPainter({ imageId: image.id, name: image.name, url: image.url })}
          >
            {can('change') ? t('labels:open') : t('labels:open_view')}
          </Button>
        ) : null}
        <Button
          type="text"
          className="image-preview-close"
          icon={<CloseOutlined />}
          aria-label={t('close')}
          onClick={onClose}
        />
      </div>
      <div className="image-preview-stage">
        <Button
          shape="circle"
          size="large"
          className="image-preview-nav"
          icon={<LeftOutlined />}
          aria-label={t('previous')}
          onClick={prev}
        />
        {current ? (
          <img key={current.id} src={current.url} alt={current.name} className={image ? undefined : 'is-stale'} />
        ) : null}
        {!image && (loading || !current) ? <Spin size="large" className="image-preview-loading" /> : null}
        <Button
          shape="circle"
          size="large"
          className="image-preview-nav"
          icon={<RightOutlined />}
          aria-label={t('next')}
          onClick={next}
        />
      </div>
      {current ? (
        <dl className="image-preview-info">
          {Object.entries(current.metadata).map(([field, value]) => (
            <div key={field} data-field={field}>
              <dt>{t(`samples:field.${field}`, { defaultValue: field })}</dt>
              <dd>{String(value)}</dd>
            </div>
          ))}
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
              <PpdBadge value={shownPpd(current)} hasPPD={current.hasPPD} />
              <ReviewedNote image={current} />
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
      ) : null}
    </div>,
    document.body,
  );
}
