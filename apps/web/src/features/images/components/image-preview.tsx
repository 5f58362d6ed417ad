import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import type { ImageItem } from '../../../lib/normalize-image';
import { PpdBadge } from './ppd-badge';

interface Props {
  images: ImageItem[];
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/** Full-screen preview: previous/next wrap around, position counter, details; Esc closes, arrows navigate. */
export function ImagePreview({ images, index, onIndexChange, onClose }: Props) {
  const { t } = useTranslation('images');
  const open = index !== null && images.length > 0;
  const count = images.length;
  const current = open ? images[Math.min(index, count - 1)] : undefined;

  useEffect(() => {
    if (!open || index === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') onIndexChange((index - 1 + count) % count);
      else if (e.key === 'ArrowRight') onIndexChange((index + 1) % count);
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
  }, [open, index, count, onIndexChange, onClose]);

  if (!open || index === null || !current) return null;
  const prev = () => onIndexChange((index - 1 + count) % count);
  const next = () => onIndexChange((index + 1) % count);

  return createPortal(
    <div className="image-preview" role="dialog" aria-modal="true" aria-label={current.name} data-testid="image-preview">
      <div className="image-preview-top">
        <span className="image-preview-counter" data-testid="preview-counter">
          {index + 1} / {count}
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
