import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import type { ImageItem } from '../../../lib/normalize-image';
import { PpdBadge } from './ppd-badge';
import { ReviewedNote, shownPpd } from './reviewed-note';

interface Props {
  image: ImageItem;
  folderName: string;
  selected: boolean;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
}

/** List view row: adds folder, format and the last prediction text. */
export const ImageListRow = memo(function ImageListRow({ image, folderName, selected, onToggle, onOpen }: Props) {
  const { t } = useTranslation('images');
  return (
    <div className={`image-row${selected ? ' is-selected' : ''}`} data-testid="image-card" data-image-name={image.name}>
      <input
        type="checkbox"
        className="image-check"
        checked={selected}
        onChange={() => onToggle(image.id)}
        aria-label={image.name}
      />
      <button type="button" className="image-row-thumb" onClick={() => onOpen(image.id)} aria-label={image.name}>
        <img src={image.thumbnailUrl} alt="" loading="lazy" decoding="async" draggable={false} />
      </button>
      <div className="image-row-main">
        <button
          type="button"
          className="image-card-name"
          title={image.name}
          onClick={() => onOpen(image.id)}
          data-testid="image-card-name"
        >
          {image.name}
        </button>
        <div className="image-row-sub">
          {folderName} · {image.format.toUpperCase() || '--'} · {formatSizeMb(image.size)}
        </div>
      </div>
      <div className="image-row-time">{formatDateTime(image.createdTime)}</div>
      <div className="image-row-ppd">
        <PpdBadge value={shownPpd(image)} hasPPD={image.hasPPD} />
        {image.reviewed ? <ReviewedNote image={image} compact /> : null}
        <span className="image-row-prediction" data-testid="last-prediction">
          {image.lastPrediction
            ? t(`prediction_label.${image.lastPrediction}`, { defaultValue: image.lastPrediction })
            : t('no_prediction')}
        </span>
      </div>
    </div>
  );
});

/** A list row whose image is not loaded yet: the same height, no content. */
export function ImageListRowPlaceholder() {
  return (
    <div className="image-row is-placeholder" data-testid="image-placeholder" aria-hidden="true">
      <span className="image-check" />
      <div className="image-row-thumb" />
      <div className="image-row-main">
        <div className="image-card-name">&nbsp;</div>
        <div className="image-row-sub">&nbsp;</div>
      </div>
    </div>
  );
}
