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
import { LANGUAGES } from '../../lib/i18n';
import { handOver } from '../../lib/hand-over';
import { engineLabelText } from '../../lib/model-label';
import { reduceMotion } from '../../lib/reduce-motion';
import { loadSampleSet, SAMPLE_COUNT, SAMPLE_LEAVES } from './sample-set';
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
  const { t, i18n } = useTranslation('home');
  // Loading the sample set uploads photos: not offered to a viewer.
  const { can } = useCan();
  const navigate = useNavigateSection();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const engine = useEngine();
  // The running engine by its name (never a model the server does not run); a neutral word until it is known.
  const engineName = engine.data?.label ? engineLabelText(engine.data.label, t) : t('hero.engine_unknown');
  const [loadingSample, setLoadingSample] = useState(false);
  /** what the demo button is doing: uploading, setting fields, scoring (with the task's progress) */
  const [sampleStep, setSampleStep] = useState<{ step: 'upload' | 'fields' | 'scoring'; percent: number } | null>(null);

  const openFolder = (folderId: number) => {
    handOver('imagesFolder', folderId);
    navigate('images');
  };
  const openResults = (taskId: number) => {
    handOver('resultsTask', taskId);
    navigate('results');
  };

  // The demo button (issue 25 item 7): generated root slices and real leaves with their genotype and rep in a
  // sample folder, scored by one task, then the task's results; the toast links the folder and the results.
  const onDemo = async () => {
    setLoadingSample(true);
    setSampleStep({ step: 'upload', percent: 0 });
    try {
      const folder = t('sample.folder');
      const task = t('sample.task');
      // The sample folder and task under their names in every language: one sample set, whatever the language.
      const others = LANGUAGES.filter((l) => l !== i18n.language).map((l) => i18n.getFixedT(l, 'home'));
      const loaded = await loadSampleSet(
        {
          folders: [folder, ...others.map((o) => o('sample.folder'))],
          description: t('sample.description'),
          tasks: [task, ...others.map((o) => o('sample.task'))],
        },
        (step, percent) => setSampleStep({ step, percent }),
      );
      await invalidateLibrary(queryClient);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey.includes('tasks') });
      const key = 'sample-loaded';
      void message.success({
        key,
        duration: 12,
        content: (
          <span className="sample-toast" data-testid="sample-toast">
            <span>
              {t(loaded.scored ? 'sample.loaded' : 'sample.loaded_scoring', {
                count: SAMPLE_COUNT,
                leaves: SAMPLE_LEAVES,
                folder: loaded.folderName,
                task: loaded.taskName,
              })}
            </span>
            <span className="sample-toast-links">
              <Button
                size="small"
                type="link"
                onClick={() => {
                  message.destroy(key);
                  openFolder(loaded.folderId);
                }}
                data-testid="sample-open-folder"
              >
                {t('sample.open_folder', { folder: loaded.folderName })}
              </Button>
              <Button
                size="small"
                type="link"
                onClick={() => {
                  message.destroy(key);
                  openResults(loaded.taskId);
                }}
                data-testid="sample-open-results"
              >
                {t('sample.open_results')}
              </Button>
            </span>
          </span>
        ),
      });
      // The task has scored them: its results (and "By group", by genotype) are the place to look.
      openResults(loaded.taskId);
    } catch (err) {
      message.error(t('sample.failed', { reason: errorMessage(t, err) }));
    } finally {
      setLoadingSample(false);
      setSampleStep(null);
    }
  };

  return (
    <section className="home-hero" aria-roledescription="carousel">
      <Carousel
        // With "reduce motion" the slides still change every 5 s, at once: no slide-over, and no progress bar
        // filling the active dot (an animation that never stops while Home is open).
        autoplay={reduceMotion ? true : { dotDuration: true }}
        speed={reduceMotion ? 0 : undefined}
        autoplaySpeed={CAROUSEL_INTERVAL_MS}
        dots
        draggable
      >
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
                        {sampleStep
                          ? t(`sample.step.${sampleStep.step}`, { percent: Math.round(sampleStep.percent) })
                          : t('hero.demo')}
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
