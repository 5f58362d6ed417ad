import { ExperimentOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Carousel } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/auth';
import { useNavigateSection } from '../../lib/section-context';
import { useEngine } from '../../lib/engine-status';
import { errorMessage } from '../../lib/error-message';
import { invalidateLibrary } from '../../lib/folders-api';
import { focusImagesOnFolder } from '../../lib/images-focus';
import { engineLabelText } from '../../lib/model-label';
import { loadSampleSet, SAMPLE_COUNT } from './sample-set';
import type { Section } from '../../lib/sections';
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
  // Loading the sample set uploads photos: not offered to a viewer.
  const { can } = useCan();
  const navigate = useNavigateSection();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const engine = useEngine();
  // The running engine by its name (never a model the server does not run); a neutral word until it is known.
  const engineName = engine.data?.label ? engineLabelText(engine.data.label, t) : t('hero.engine_unknown');
  const [loadingSample, setLoadingSample] = useState(false);

  // The demo button: a small set of generated specimen photos in a sample folder, opened on Images, so a newcomer
  // can run a task in a minute without photos of their own.
  const onDemo = async () => {
    setLoadingSample(true);
    try {
      const folderId = await loadSampleSet({ name: t('sample.folder'), description: t('sample.description') });
      await invalidateLibrary(queryClient);
      message.success(t('sample.loaded', { count: SAMPLE_COUNT, folder: t('sample.folder') }));
      focusImagesOnFolder(folderId);
      navigate('images');
    } catch (err) {
      message.error(t('sample.failed', { reason: errorMessage(t, err) }));
    } finally {
      setLoadingSample(false);
    }
  };

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
                  <p data-testid={`slide-${s.key}-subtitle`}>{t(`hero.${s.key}.subtitle`, { engine: engineName })}</p>
                  <div className="home-slide-actions">
                    <Button size="large" className="home-slide-primary" onClick={() => navigate(s.target)}>
                      {t(`hero.${s.key}.button`)}
                    </Button>
                    {can('change') ? (
                      <Button
                        size="large"
                        ghost
                        icon={<ExperimentOutlined />}
                        loading={loadingSample}
                        onClick={() => void onDemo()}
                        data-testid="hero-demo"
                      >
                        {t('hero.demo')}
                      </Button>
                    ) : null}
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
