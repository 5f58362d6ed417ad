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
 * Under a reviewed image's PPD: "Reviewed", and when a later run nobody reviewed reads otherwise, that run's value
 * ("Reviewed · later run 5.10, not reviewed"). Rendered only for reviewed images, so the other cards pay nothing.
 */
export function ReviewedNote({ image }: { image: Pick<ImageItem, 'ppdValue' | 'reviewed'> }) {
  const { t } = useTranslation('images');
  const reviewed = image.reviewed;
  if (!reviewed) return null;
  const later = !reviewed.latest && image.ppdValue !== null;
  return (
    <div className={`image-reviewed${later ? ' has-later-run' : ''}`} data-testid="image-reviewed">
      <CheckCircleFilled aria-hidden="true" />{' '}
      {later ? t('reviewed_later_run', { value: formatPpd(image.ppdValue) }) : t('reviewed_mark')}
    </div>
  );
}
