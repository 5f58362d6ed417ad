import {
  BarChartOutlined,
  CloudServerOutlined,
  ExperimentOutlined,
  PictureOutlined,
  RobotOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateSection } from '../../lib/section-context';
import { HomeHero } from './home-hero';
import { HomeStats } from './home-stats';
import './home.css';

const ABOUT: { key: string; icon: ReactNode }[] = [
  { key: 'research', icon: <ExperimentOutlined /> },
  { key: 'team', icon: <TeamOutlined /> },
  { key: 'achievement', icon: <TrophyOutlined /> },
];

const FEATURES: { key: string; icon: ReactNode }[] = [
  { key: 'ai', icon: <RobotOutlined /> },
  { key: 'image', icon: <PictureOutlined /> },
  { key: 'analytics', icon: <BarChartOutlined /> },
  { key: 'security', icon: <SafetyCertificateOutlined /> },
  { key: 'efficiency', icon: <ThunderboltOutlined /> },
  { key: 'cloud', icon: <CloudServerOutlined /> },
];

/** The public-style home page of the institute (spec section 2, Home). */
export default function HomePage() {
  const { t } = useTranslation('home');
  const navigate = useNavigateSection();
  return (
    <div className="home">
      <HomeHero />

      <section className="home-section home-about">
        <div className="home-container">
          <header className="home-section-head">
            <span className="home-kicker">{t('about.kicker')}</span>
            <h2>{t('about.title')}</h2>
            <p>{t('about.intro')}</p>
          </header>
          <div className="home-about-grid">
            {ABOUT.map((a) => (
              <article className="home-about-card" key={a.key}>
                <div className="home-about-icon">{a.icon}</div>
                <h3>{t(`about.${a.key}.title`)}</h3>
                <p>{t(`about.${a.key}.text`)}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <HomeStats />

      <section className="home-section">
        <div className="home-container">
          <header className="home-section-head">
            <span className="home-kicker">{t('features.kicker')}</span>
            <h2>{t('features.title')}</h2>
          </header>
          <div className="home-features">
            {FEATURES.map((f) => (
              <article className="home-feature" key={f.key} data-testid={`feature-${f.key}`}>
                <div className="home-feature-icon">{f.icon}</div>
                <h3>{t(`features.${f.key}.title`)}</h3>
                <p>{t(`features.${f.key}.text`)}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="home-cta">
        <div className="home-container home-cta-inner">
          <div>
            <h2>{t('cta.title')}</h2>
            <p>{t('cta.text')}</p>
          </div>
          <div className="home-cta-actions">
            <Button type="primary" size="large" onClick={() => navigate('prediction')}>
              {t('cta.prediction')}
            </Button>
            <Button size="large" onClick={() => navigate('images')}>
              {t('cta.images')}
            </Button>
          </div>
        </div>
      </section>
    </div>
  );
}
