import { formatPpd, ppdColour } from '../../../lib/ppd';

/**
 * "PPD 5.42" in its band colour, or "PPD --" when the image has no score. "PPD" is the same in both
 * languages, so the badge needs no translation hook (it is rendered for every card while scrolling).
 */
export function PpdBadge({ value, hasPPD }: { value: number | null; hasPPD: boolean }) {
  const shown = hasPPD ? value : null;
  const colour = ppdColour(shown);
  return (
    <span
      className="ppd-badge"
      data-testid="ppd-badge"
      style={colour ? { color: colour, borderColor: colour, background: `${colour}14` } : undefined}
    >
      PPD {formatPpd(shown)}
    </span>
  );
}
