import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Carousel } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigateSection } from '../../app/section-context';
import type { Section } from '../../app/sections';
import { LeafArt } from './leaf-art';

/** Spec section 9: 3 slides, rotating every 5 seconds. */
export const CAROUSEL_INTERVAL_MS = 5000;
const SLIDES: { key: string; target: Section; variant: number }[] = [
  { key: 'prediction', target: 'prediction', variant: 0 },
  { key: 'images', target: 'images', variant: 1 },
  { key: 'results', target: 'results', variant: 2 },
];

export function HomeHero() {
  const { t } = useTranslation('home');
  const navigate = useNavigateSection();
  return (
    <section className="home-hero" aria-roledescription="carousel">
      <Carousel autoplay={{ dotDuration: true }} autoplaySpeed={CAROUSEL_INTERVAL_MS} dots draggable>
        {SLIDES.map((s) => (
          <div key={s.key}>
            <div className={`home-slide home-slide-${s.variant}`} data-testid={`slide-${s.key}`}>
              <div className="home-container home-slide-inner">
                <div className="home-slide-text">
                  <span className="home-eyebrow">{t(`hero.${s.key}.eyebrow`)}</span>
                  <h1>{t(`hero.${s.key}.title`)}</h1>
                  <p>{t(`hero.${s.key}.subtitle`)}</p>
                  <div className="home-slide-actions">
                    <Button size="large" className="home-slide-primary" onClick={() => navigate(s.target)}>
                      {t(`hero.${s.key}.button`)}
                    </Button>
                    {/* The spec's secondary demo button has no action. */}
                    <Button size="large" ghost icon={<PlayCircleOutlined />}>
                      {t('hero.demo')}
                    </Button>
                  </div>
                </div>
                <div className="home-slide-art" aria-hidden="true">
                  <LeafArt variant={s.variant} />
                </div>
              </div>
            </div>
          </div>
        ))}
      </Carousel>
    </section>
  );
}
