import { useTranslation } from 'react-i18next';

interface Props {
  keys: string[];
  label: (key: string) => string;
  title: (key: string) => string;
  available: (key: string) => boolean;
  onJump: (key: string) => void;
}

/** The right-hand strip of group keys (letters, dates, folders or size buckets); a click scrolls smoothly there. */
export function QuickJumpIndex({ keys, label, title, available, onJump }: Props) {
  const { t } = useTranslation('images');
  if (keys.length === 0) return null;
  return (
    <nav className="quick-jump" aria-label={t('quick_jump')} data-testid="quick-jump">
      {keys.map((k) => (
        <button key={k} type="button" title={title(k)} disabled={!available(k)} onClick={() => onJump(k)} data-key={k}>
          {label(k)}
        </button>
      ))}
    </nav>
  );
}
