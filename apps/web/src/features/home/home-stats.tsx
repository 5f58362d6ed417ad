import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec section 9: targets, counted up from 0 in 50 steps, one every 50 ms, once the block scrolls into view. */
export const STAT_STEPS = 50;
export const STAT_STEP_MS = 50;
const STATS = [
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

export function HomeStats() {
  const { t } = useTranslation('home');
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { threshold: 0.3 },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const step = useCountUp(visible);

  return (
    <section className="home-stats" ref={ref} aria-label={t('stats.title')}>
      <div className="home-container home-stats-grid">
        {STATS.map((s) => (
          <div className="home-stat" key={s.key} data-testid={`stat-${s.key}`}>
            <div className="home-stat-value">
              {Math.round((s.target * step) / STAT_STEPS)}
              {s.suffix}
            </div>
            <div className="home-stat-label">{t(`stats.${s.key}`)}</div>
          </div>
        ))}
      </div>
    </section>
  );
}
