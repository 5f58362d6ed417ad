import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  keys: string[];
  label: (key: string) => string;
  title: (key: string) => string;
  available: (key: string) => boolean;
  onJump: (key: string) => void;
  /** A small heading before a key (the year, when day keys cross into another year), or null. */
  marker?: (key: string, previous: string | undefined) => string | null;
  /** How the keys read: short ones (letters) make a narrow strip, dates and folder names a wider one. */
  variant: 'narrow' | 'medium' | 'wide';
}

/** The right-hand strip of group keys (letters, dates, folders or size buckets); a click scrolls smoothly there. */
export function QuickJumpIndex({ keys, label, title, available, onJump, marker, variant }: Props) {
  const { t } = useTranslation('images');
  if (keys.length === 0) return null;
  // A strip of its own beside the grid (not over it), as wide as its keys need.
  return (
    <nav className={`quick-jump is-${variant}`} aria-label={t('quick_jump')} data-testid="quick-jump">
      {keys.map((k, i) => {
        const heading = marker?.(k, keys[i - 1]) ?? null;
        return (
          <Fragment key={k}>
            {heading ? (
              <span className="quick-jump-marker" aria-hidden="true">
                {heading}
              </span>
            ) : null}
            <button
              type="button"
              title={title(k)}
              aria-label={title(k)}
              disabled={!available(k)}
              onClick={() => onJump(k)}
              data-key={k}
            >
              {label(k)}
            </button>
          </Fragment>
        );
      })}
    </nav>
  );
}
