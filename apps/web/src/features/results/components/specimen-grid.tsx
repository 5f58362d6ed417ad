import { EyeOutlined } from '@ant-design/icons';
import { Checkbox, Tag } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpecimenView } from '../../../lib/normalize-result';
import { formatPpd, ppdColour } from '../../../lib/ppd';
import { bandOf } from './severity';

function SpecimenImage({ src, alt, caption }: { src: string | null; alt: string; caption: string }) {
  const { t } = useTranslation('results');
  return (
    <figure className="specimen-figure">
      {src ? (
        <a href={src} target="_blank" rel="noreferrer" className="specimen-image-link">
          <img src={src} alt={alt} loading="lazy" decoding="async" />
        </a>
      ) : (
        <div className="specimen-image-missing">{t('detail.no_image')}</div>
      )}
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** One specimen: number, kind, its cut and lesion images, PPD in its band colour, confidence, review state. */
function SpecimenCard({
  specimen: s,
  actions,
  onPick,
}: {
  specimen: SpecimenView;
  actions?: ReactNode;
  onPick?: ((index: number) => void) | undefined;
}) {
  const { t } = useTranslation('results');
  const colour = ppdColour(s.ppd);
  const band = bandOf(s.ppd);
  const kind = t(`specimen.kind.${s.kind}`);
  return (
    <article
      className={`specimen-card band-${band ?? 'none'}${s.needsReview ? ' needs-review' : ''}${s.excluded ? ' is-excluded' : ''}`}
      style={colour ? { borderTopColor: colour } : undefined}
      data-testid="specimen-card"
      data-index={s.index}
      // A click on the card (not on its buttons, links or fields) picks it for the keys A / X.
      onClick={
        onPick
          ? (e) => {
              if (!(e.target as HTMLElement).closest('button, a, input, textarea, .ant-popover')) onPick(s.index);
            }
          : undefined
      }
    >
      <header className="specimen-head">
        <span className="specimen-number" data-testid="specimen-number">
          {t('specimen.number', { n: s.index })}
        </span>
        <span className="specimen-kind" title={kind} data-testid="specimen-kind">
          {kind}
        </span>
        {s.needsReview && (
          <Tag
            color="orange"
            icon={<EyeOutlined />}
            className="specimen-tag"
            title={t('specimen.needs_review')}
            data-testid="specimen-needs-review"
          >
            <span className="specimen-tag-text">{t('specimen.needs_review')}</span>
          </Tag>
        )}
      </header>
      {(s.excluded || s.corrected || s.source === 'reviewer') && (
        <div className="specimen-flags">
          {s.excluded && <Tag className="specimen-tag">{t('specimen.excluded')}</Tag>}
          {s.corrected && (
            <Tag color="blue" className="specimen-tag">
              {t('specimen.corrected')}
            </Tag>
          )}
          {s.source === 'reviewer' && <Tag className="specimen-tag">{t('specimen.added')}</Tag>}
        </div>
      )}
      <div className="specimen-images">
        <SpecimenImage
          src={s.cutUrl}
          alt={t('specimen.image_alt', { n: s.index, what: t('specimen.cut') })}
          caption={t('specimen.cut')}
        />
        <SpecimenImage
          src={s.predUrl}
          alt={t('specimen.image_alt', { n: s.index, what: t('specimen.pred') })}
          caption={t('specimen.pred')}
        />
      </div>
      <footer className="specimen-values">
        <span className="specimen-ppd" data-testid="specimen-ppd">
          <span className="specimen-dot" style={{ background: colour ?? '#bfbfbf' }} aria-hidden="true" />
          PPD <strong>{formatPpd(s.ppd)}</strong>
        </span>
        <span className="specimen-confidence" data-testid="specimen-confidence">
          {t('specimen.confidence', { value: s.confidence === null ? '--' : `${Math.round(s.confidence * 100)}%` })}
        </span>
      </footer>
      {actions}
    </article>
  );
}

/**
 * Every specimen of a result as a grid (a 30-specimen photo stays scannable: compact cards, lazy images, and a
 * switch to show only those needing review). `renderActions` adds a specimen's review controls to its card.
 */
export function SpecimenGrid({
  specimens,
  renderActions,
  onPick,
}: {
  specimens: SpecimenView[];
  renderActions?: (s: SpecimenView) => ReactNode;
  /** a card was clicked: the keys act on that specimen */
  onPick?: ((index: number) => void) | undefined;
}) {
  const { t } = useTranslation('results');
  const [onlyReview, setOnlyReview] = useState(false);
  const flagged = specimens.filter((s) => s.needsReview).length;
  const shown = onlyReview ? specimens.filter((s) => s.needsReview) : specimens;
  return (
    <section className="specimen-section" data-testid="specimen-section">
      <div className="specimen-section-head">
        <h4 data-testid="specimen-count">{t('detail.specimens', { count: specimens.length })}</h4>
        {flagged > 0 && (
          <>
            <Tag color="orange" icon={<EyeOutlined />} data-testid="specimen-review-count">
              {t('detail.review_count', { count: flagged })}
            </Tag>
            <Checkbox
              checked={onlyReview}
              onChange={(e) => setOnlyReview(e.target.checked)}
              data-testid="specimen-only-review"
            >
              {t('detail.only_review')}
            </Checkbox>
          </>
        )}
      </div>
      {specimens.length === 0 ? (
        <div className="specimen-empty">{t('detail.no_specimens')}</div>
      ) : (
        <div className="specimen-grid" data-testid="specimen-grid">
          {shown.map((s) => (
            <SpecimenCard key={s.index} specimen={s} actions={renderActions?.(s)} onPick={onPick} />
          ))}
        </div>
      )}
    </section>
  );
}
