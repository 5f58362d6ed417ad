import { HighlightOutlined } from '@ant-design/icons';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import type { ImageItem } from '../../../lib/normalize-image';
import { PpdBadge } from './ppd-badge';
import { ReviewedNote, shownPpd } from './reviewed-note';

interface Props {
  image: ImageItem;
  selected: boolean;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
  /** The current language: a change re-renders the memoised card (its date is formatted in that language). */
  lang: string;
}

/** Grid card: thumbnail, name, created time, size in MB, PPD. Clicking the picture or the name opens the preview. */
export const ImageCard = memo(function ImageCard({ image, selected, onToggle, onOpen }: Props) {
  return (
    <div
      className={`image-card${selected ? ' is-selected' : ''}`}
      data-testid="image-card"
      data-image-name={image.name}
    >
      <button type="button" className="image-card-thumb" onClick={() => onOpen(image.id)} aria-label={image.name}>
        <img src={image.thumbnailUrl} alt="" loading="lazy" decoding="async" draggable={false} />
      </button>
      {/* A native checkbox: hundreds of cards pass by while scrolling, so each card stays light. */}
      <input
        type="checkbox"
        className="image-check image-card-check"
        checked={selected}
        onChange={() => onToggle(image.id)}
        aria-label={image.name}
      />
      <div className="image-card-body">
        {/* The name opens the preview too (issue 25), like the picture. */}
        <button
          type="button"
          className="image-card-name"
          title={image.name}
          onClick={() => onOpen(image.id)}
          data-testid="image-card-name"
        >
          {image.hasLabels ? <LabelledMark /> : null}
          {image.name}
        </button>
        <div className="image-card-meta">
          <span>{formatDateTime(image.createdTime)}</span>
        </div>
        <div className="image-card-meta">
          <span data-testid="image-size">{formatSizeMb(image.size)}</span>
          <PpdBadge value={shownPpd(image)} hasPPD={image.hasPPD} />
        </div>
        {image.reviewed ? <ReviewedNote image={image} compact /> : null}
      </div>
    </div>
  );
});

/** The photo has painted labels (issue 23); only labelled cards pay for the translation hook. */
function LabelledMark() {
  const { t } = useTranslation('labels');
  return (
    <span className="image-card-labelled" title={t('labelled')} aria-label={t('labelled')} data-testid="image-labelled">
      <HighlightOutlined />
    </span>
  );
}

/** A card whose image is not loaded yet (its page loads once it is in view): the same size, no content. */
export function ImageCardPlaceholder() {
  return (
    <div className="image-card is-placeholder" data-testid="image-placeholder" aria-hidden="true">
      <div className="image-card-thumb" />
      <div className="image-card-body">
        <div className="image-card-name">&nbsp;</div>
        <div className="image-card-meta">&nbsp;</div>
        <div className="image-card-meta">
          <span className="ppd-badge">&nbsp;</span>
        </div>
      </div>
    </div>
  );
}
