import { useQuery } from '@tanstack/react-query';
import { libraryFiguresSchema, type LibraryFigures } from '@cassavascope/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

/** Spec section 9: figures count up from 0 in 50 steps, one every 50 ms, once the block scrolls into view. */
export const STAT_STEPS = 50;
export const STAT_STEP_MS = 50;

/** This library's own figures (GET /figures/), the block's main row: real counts, never invented. */
const LIBRARY: { key: string; of: (f: LibraryFigures) => number }[] = [
  { key: 'photos', of: (f) => f.photos },
  { key: 'specimens', of: (f) => f.specimens_scored },
  { key: 'reviewed', of: (f) => f.photos_reviewed },
  { key: 'researchers', of: (f) => f.researchers },
];

/** The academy's own figures (spec section 9's targets): its research programme's, labelled as such. */
const ACADEMY = [
  { key: 'images', target: 50000, suffix: '+' },
  { key: 'accuracy', target: 96, suffix: '%' },
  { key: 'researchers', target: 120, suffix: '+' },
  { key: 'years', target: 15, suffix: '' },
] as const;

function useCountUp(started: boolean): number {
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!started) return;
    const timer = setInterval(() => {
      setStep((s) => {
        if (s + 1 >= STAT_STEPS) clearInterval(timer);
        return Math.min(STAT_STEPS, s + 1);
      });
    }, STAT_STEP_MS);
    return () => clearInterval(timer);
  }, [started]);
  return step;
}

/** The block has come into view (once). */
function useSeen<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { threshold: 0.3 },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, seen };
}

const counted = (target: number, step: number) => Math.round((target * step) / STAT_STEPS);

/**
 * The home page's statistics: this library's real figures (photos, specimens scored, photos reviewed, researchers:
 * the user accounts, or 1 with sign-in off), then the academy's own figures under a label saying whose they are.
 * Both count up once in view; the library's once its figures have arrived (a dash where they could not be read).
 */
export function HomeStats() {
  const { t } = useTranslation('home');
  const { ref, seen } = useSeen<HTMLElement>();
  const figures = useQuery({
    queryKey: ['home', 'figures'],
    queryFn: ({ signal }) => api.get<LibraryFigures>('/figures/', undefined, signal, libraryFiguresSchema),
    // Read again each time Home opens: a review or a task finished a moment ago must show in the figures.
    staleTime: 0,
  });
  const library = useCountUp(seen && figures.data !== undefined);
  const academy = useCountUp(seen);

  return (
    <section className="home-stats" ref={ref} aria-label={t('stats.title')} data-testid="home-stats">
      <div className="home-container">
        <h2 className="home-stats-title">{t('stats.title')}</h2>
        <div className="home-stats-grid">
          {LIBRARY.map((s) => (
            <div className="home-stat" key={s.key} data-testid={`stat-${s.key}`}>
              <div className="home-stat-value">
                {figures.data ? formatCount(counted(s.of(figures.data), library)) : figures.isError ? '–' : '\u00a0'}
              </div>
              <div className="home-stat-label">
                {/* singular under 1 ("1 Photo reviewed"), from the figure itself, not the count-up */}
                {t(`stats.library.${s.key}`, { count: figures.data ? s.of(figures.data) : 2 })}
              </div>
            </div>
          ))}
        </div>
        <div className="home-stats-academy" data-testid="stats-academy">
          <div className="home-stats-academy-title">{t('stats.academy_title')}</div>
          <div className="home-stats-academy-grid">
            {ACADEMY.map((s) => (
              <div className="home-stat-academy" key={s.key} data-testid={`stat-academy-${s.key}`}>
                <span className="home-stat-academy-value">
                  {counted(s.target, academy)}
                  {s.suffix}
                </span>{' '}
                <span className="home-stat-academy-label">{t(`stats.academy.${s.key}`)}</span>
              </div>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
