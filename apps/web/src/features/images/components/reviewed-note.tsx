import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatPpd } from '../../../lib/ppd';
import type { ImageItem } from '../../../lib/normalize-image';

/**
 * The PPD a card shows: a reviewed result's value where the image has one (the value a researcher trusts), even
 * when a later run nobody reviewed is the newest; otherwise the newest result's.
 */
export function shownPpd(image: Pick<ImageItem, 'ppdValue' | 'reviewed'>): number | null {
  return image.reviewed ? image.reviewed.ppdValue : image.ppdValue;
}

/**
 * Under a reviewed image's PPD: "Reviewed", and when a later run nobody reviewed reads otherwise, that run's value.
 * `compact` (cards and list rows) says it in a few words, the whole sentence in its tooltip: one line on a desktop
 * card (the sentence took three), two on a phone's, the value never cut. Rendered only for reviewed images, so the other cards pay nothing.
 */
export function ReviewedNote({
  image,
  compact = false,
}: {
  image: Pick<ImageItem, 'ppdValue' | 'reviewed'>;
  compact?: boolean;
}) {
  const { t } = useTranslation('images');
  const reviewed = image.reviewed;
  if (!reviewed) return null;
  const later = !reviewed.latest && image.ppdValue !== null;
  const sentence = later ? t('reviewed_later_run', { value: formatPpd(image.ppdValue) }) : t('reviewed_mark');
  const shown = later && compact ? t('reviewed_later_run_short', { value: formatPpd(image.ppdValue) }) : sentence;
  return (
    <div
      className={`image-reviewed${later ? ' has-later-run' : ''}`}
      data-testid="image-reviewed"
      title={compact ? sentence : undefined}
    >
      <CheckCircleFilled aria-hidden="true" /> {shown}
    </div>
  );
}
