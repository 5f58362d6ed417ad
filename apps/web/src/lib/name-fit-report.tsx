import { Alert, Button, Typography } from 'antd';
import { suggestNamePattern, type NameMismatch } from '@cassavascope/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { nameMismatchText } from './name-fit';
import './name-fit-report.css';

/** Names listed at most (the count says how many more). */
const LISTED = 200;

/** Names that do not fit a pattern, each with why (issue 25 item 5). */
export function NameFitList({ items }: { items: { key: string | number; name: string; mismatch: NameMismatch }[] }) {
  const { t } = useTranslation('samples');
  return (
    <ul className="name-fit-list" data-testid="name-fit-list">
      {items.slice(0, LISTED).map((item) => (
        <li key={item.key} data-testid="name-fit-item" data-name={item.name}>
          <span className="name-fit-name">{item.name}</span>
          <span className="name-fit-reason" data-testid="name-fit-reason">
            {nameMismatchText(t, item.mismatch)}
          </span>
        </li>
      ))}
      {items.length > LISTED ? <li className="name-fit-more">{t('more', { count: items.length - LISTED })}</li> : null}
    </ul>
  );
}

/**
 * A pattern read from the names themselves, offered when it fits more of them than the current one does
 * (`fitting`): "A pattern that fits 5 of 5 names: {genotype}_R{rep}_{dah}d_{root} [Use this pattern]".
 */
export function PatternSuggestion({
  names,
  pattern,
  fitting,
  onUse,
}: {
  names: readonly string[];
  pattern: string;
  fitting: number;
  onUse: (pattern: string) => void;
}) {
  const { t } = useTranslation('samples');
  const suggestion = useMemo(() => suggestNamePattern(names, pattern.trim()), [names, pattern]);
  if (!suggestion || suggestion.pattern === pattern.trim() || suggestion.fits <= fitting) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="name-fit-suggestion"
      data-testid="pattern-suggestion"
      message={
        <span className="name-fit-suggestion-text">
          {t('fit.suggest', { fits: suggestion.fits, total: names.length })}{' '}
          <Typography.Text code data-testid="suggested-pattern">
            {suggestion.pattern}
          </Typography.Text>
        </span>
      }
      action={
        <Button size="small" onClick={() => onUse(suggestion.pattern)} data-testid="use-suggestion">
          {t('fit.use_suggestion')}
        </Button>
      }
    />
  );
}

/** Names shown in a note at most. */
const NOTED = 5;

/**
 * The note after an upload whose names did not all fit its pattern: the first names with why, and a pattern that
 * fits them (translated in the images namespace, where the upload's other notes are).
 */
export function UnfitNamesNote({
  items,
  suggestion,
}: {
  items: { name: string; mismatch: NameMismatch }[];
  suggestion: string | null;
}) {
  const { t } = useTranslation('images');
  return (
    <div className="name-fit-note" data-testid="pattern-unfit">
      {items.slice(0, NOTED).map((item, i) => (
        <div key={i} data-testid="pattern-unfit-name">
          <strong>{item.name}</strong>: {nameMismatchText(t, item.mismatch)}
        </div>
      ))}
      {items.length > NOTED ? <div>{t('samples:more', { count: items.length - NOTED })}</div> : null}
      {suggestion ? (
        <div className="name-fit-note-suggestion" data-testid="pattern-unfit-suggestion">
          {t('pattern_unfit_suggest', { pattern: suggestion })}
        </div>
      ) : null}
    </div>
  );
}
