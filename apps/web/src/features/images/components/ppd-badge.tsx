import { useTranslation } from 'react-i18next';
import { formatPpd, ppdColour } from '../../../lib/ppd';

/** "PPD 5.42" in its band colour, or "--" when the image has no score. */
export function PpdBadge({ value, hasPPD }: { value: number | null; hasPPD: boolean }) {
  const { t } = useTranslation('images');
  const shown = hasPPD ? value : null;
  const colour = ppdColour(shown);
  return (
    <span
      className="ppd-badge"
      data-testid="ppd-badge"
      style={colour ? { color: colour, borderColor: colour, background: `${colour}14` } : undefined}
    >
      {t('ppd')} {formatPpd(shown)}
    </span>
  );
}
