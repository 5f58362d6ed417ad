import { ExpandOutlined } from '@ant-design/icons';
import type { Severity } from '@cassavascope/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultView, SpecimenView } from '../../../lib/normalize-result';
import { formatPpd, SEVERITY_COLOURS } from '../../../lib/ppd';
import { bandOf } from './severity';

/** The colour of a box without a value (cuts only), or of an excluded specimen. */
export const UNSCORED_COLOUR = '#8c8c8c';

/** With more specimens than this (a crowded tray) a box is labelled with its number only (its value is on its card). */
const VALUES_UP_TO = 20;

/** A specimen's box colour: its band's (the colours PPD values have everywhere), grey when it has no value. */
export function boxColour(s: Pick<SpecimenView, 'ppd' | 'excluded'>): string {
  const band = bandOf(s.ppd);
  return s.excluded || !band ? UNSCORED_COLOUR : SEVERITY_COLOURS[band];
}

/** Every specimen has a box: the overview can be drawn over the original. */
export function canDrawOverview(result: ResultView): boolean {
  return result.originalImageUrl !== null && result.specimens.length > 0 && result.specimens.every((s) => s.box);
}

/**
 * The numbered overview (issue 25): the original photo with each specimen's box in its band's colour, numbered as
 * the specimens are (the engine numbers them in reading order: rows top to bottom, each left to right), the value
 * beside the number; an excluded specimen dashed grey. Drawn over the photo by the browser, so review changes show
 * at once. Clicking the photo opens the full-screen preview; clicking a box picks that specimen (keys A / X).
 */
export function SpecimenOverview({
  result,
  onPreview,
  onPick,
  picked,
}: {
  result: ResultView;
  onPreview: () => void;
  onPick?: ((index: number) => void) | undefined;
  /** the specimen the keys act on, outlined thicker */
  picked?: number | null | undefined;
}) {
  const { t } = useTranslation('results');
  const withValues = result.specimens.length <= VALUES_UP_TO;
  // The boxes are in the original's pixels (after EXIF orientation, as the browser shows it): its natural size.
  const [size, setSize] = useState<{ src: string; width: number; height: number } | null>(null);
  const src = result.originalImageUrl ?? '';
  return (
    <div className="specimen-overview" data-testid="detail-numbered">
      <div className="specimen-overview-frame">
        <img
          src={result.originalImageUrl ?? undefined}
          alt={t('detail.numbered_alt', { name: result.imageName })}
          onClick={onPreview}
          onLoad={(e) => setSize({ src, width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
          data-testid="overview-photo"
        />
        {size && size.src === src && size.width > 0 && size.height > 0 ? (
          <OverviewBoxes result={result} size={size} withValues={withValues} onPick={onPick} picked={picked} />
        ) : null}
        <button
          type="button"
          className="result-detail-expand"
          onClick={onPreview}
          data-testid="result-detail-preview"
          aria-label={t('detail.full_screen')}
        >
          <ExpandOutlined /> <span className="result-detail-expand-text">{t('detail.full_screen')}</span>
        </button>
      </div>
    </div>
  );
}

/** The boxes, placed in percent of the photo's size: the photo's own pixel size need not be known. */
function OverviewBoxes({
  result,
  size,
  withValues,
  onPick,
  picked,
}: {
  result: ResultView;
  size: { width: number; height: number };
  withValues: boolean;
  onPick?: ((index: number) => void) | undefined;
  picked?: number | null | undefined;
}) {
  const { t } = useTranslation('results');
  return (
    <>
      {result.specimens.map((s) => {
        const [x, y, w, h] = s.box!;
        const colour = boxColour(s);
        const band: Severity | null = bandOf(s.ppd);
        const label = withValues && s.ppd !== null ? `${s.index}: ${formatPpd(s.ppd)}` : String(s.index);
        const nearTop = y / size.height < 0.1;
        return (
          <button
            type="button"
            key={s.index}
            className={`overview-box${s.excluded ? ' is-excluded' : ''}${picked === s.index ? ' is-picked' : ''}`}
            style={{
              left: `${(x / size.width) * 100}%`,
              top: `${(y / size.height) * 100}%`,
              width: `${(w / size.width) * 100}%`,
              height: `${(h / size.height) * 100}%`,
              borderColor: colour,
            }}
            title={t('detail.box_title', {
              n: s.index,
              value: formatPpd(s.ppd),
              band: s.excluded ? t('detail.band_excluded') : band ? t(`health.${band}`) : '--',
            })}
            onClick={(e) => {
              e.stopPropagation();
              onPick?.(s.index);
              // ...and shows its card (cut, lesions, review controls) below.
              e.currentTarget
                .closest('.result-detail')
                ?.querySelector(`[data-testid="specimen-card"][data-index="${s.index}"]`)
                ?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
            }}
            data-testid="overview-box"
            data-index={s.index}
            data-band={s.excluded ? 'excluded' : (band ?? 'none')}
            data-colour={colour}
          >
            <span className={`overview-label${nearTop ? ' is-inside' : ''}`} style={{ background: colour }}>
              {label}
            </span>
          </button>
        );
      })}
    </>
  );
}

/** What the colours and numbers of the overview mean. */
export function OverviewLegend() {
  const { t } = useTranslation('results');
  const bands: Severity[] = ['healthy', 'mild', 'severe'];
  return (
    <div className="overview-legend" data-testid="overview-legend">
      {bands.map((b) => (
        <span key={b} className="overview-legend-item">
          <i style={{ borderColor: SEVERITY_COLOURS[b] }} aria-hidden="true" />
          {t(`detail.legend.${b}`)}
        </span>
      ))}
      <span className="overview-legend-item">
        <i className="is-excluded" style={{ borderColor: UNSCORED_COLOUR }} aria-hidden="true" />
        {t('detail.legend.excluded')}
      </span>
      <span className="overview-legend-order">{t('detail.legend.order')}</span>
    </div>
  );
}
