import { SettingOutlined } from '@ant-design/icons';
import { Card, Collapse, Radio, Select, Slider, Switch, Tooltip } from 'antd';
import { PARAMETER_RANGES as R } from '@cassavascope/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PredictionParameterValues } from '../api/create-prediction-task';

interface Props {
  values: PredictionParameterValues;
  onChange: (values: PredictionParameterValues) => void;
  /** the server's engine label (`/api/status/` engine.label), null while unknown */
  modelLabel: string | null;
}

function Field({ label, value, children, testId }: { label: string; value?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="prediction-field" data-testid={testId}>
      <div className="prediction-field-head">
        <span>{label}</span>
        {value !== undefined && <strong className="prediction-field-value">{value}</strong>}
      </div>
      {children}
    </div>
  );
}

const fixed2 = (v: number) => v.toFixed(2);

/**
 * Configuration: the single prediction mode, the one model (disabled, named by the server), the confidence
 * slider and the collapsible advanced section with every slider and switch of spec section 5.
 */
export function ConfigurationPanel({ values, onChange, modelLabel }: Props) {
  const { t } = useTranslation('prediction');
  const set = <K extends keyof PredictionParameterValues>(key: K, value: PredictionParameterValues[K]) =>
    onChange({ ...values, [key]: value });

  const advanced = (
    <div className="prediction-advanced">
      <Field label={t('config.advanced_confidence')} value={fixed2(values.confidenceThreshold)} testId="advanced-confidence">
        <Slider
          min={R.advancedConfidence.min}
          max={R.advancedConfidence.max}
          step={R.advancedConfidence.step}
          value={Math.min(values.confidenceThreshold, R.advancedConfidence.max)}
          onChange={(v) => set('confidenceThreshold', v)}
          aria-label={t('config.advanced_confidence')}
        />
      </Field>
      <Field label={t('config.min_area')} value={values.minArea} testId="min-area">
        <Slider
          min={R.minArea.min}
          max={R.minArea.max}
          step={R.minArea.step}
          value={values.minArea}
          onChange={(v) => set('minArea', v)}
          aria-label={t('config.min_area')}
        />
      </Field>
      <Field label={t('config.morph_kernel')} value={values.morphKernelSize} testId="morph-kernel">
        <Slider
          min={R.morphKernel.min}
          max={R.morphKernel.max}
          step={R.morphKernel.step}
          value={values.morphKernelSize}
          onChange={(v) => set('morphKernelSize', v)}
          aria-label={t('config.morph_kernel')}
        />
      </Field>
      <Field label={t('config.morph_iterations')} value={values.morphIterations} testId="morph-iterations">
        <Slider
          min={R.morphIterations.min}
          max={R.morphIterations.max}
          step={R.morphIterations.step}
          value={values.morphIterations}
          onChange={(v) => set('morphIterations', v)}
          aria-label={t('config.morph_iterations')}
        />
      </Field>
      <Field label={t('config.overlay_opacity')} value={fixed2(values.overlayOpacity)} testId="overlay-opacity">
        <Slider
          min={R.overlayOpacity.min}
          max={R.overlayOpacity.max}
          step={R.overlayOpacity.step}
          value={values.overlayOpacity}
          onChange={(v) => set('overlayOpacity', v)}
          aria-label={t('config.overlay_opacity')}
        />
      </Field>
      <div className="prediction-switch">
        <span>
          {t('config.post_processing')}
          <small>{t('config.post_processing_hint')}</small>
        </span>
        <Switch
          checked={values.usePostProcessing}
          onChange={(v) => set('usePostProcessing', v)}
          aria-label={t('config.post_processing')}
          data-testid="switch-post-processing"
        />
      </div>
      <div className="prediction-switch">
        <span>
          {t('config.tta')}
          <small>{t('config.tta_hint')}</small>
        </span>
        <Switch checked={values.useTTA} onChange={(v) => set('useTTA', v)} aria-label={t('config.tta')} data-testid="switch-tta" />
      </div>
    </div>
  );

  return (
    <Card
      className="prediction-card"
      title={
        <span>
          <SettingOutlined /> {t('config.title')}
        </span>
      }
    >
      <Field label={t('config.mode')}>
        <Radio.Group value="single" optionType="button" buttonStyle="solid">
          <Radio.Button value="single">{t('config.mode_single')}</Radio.Button>
        </Radio.Group>
      </Field>
      <Field label={t('config.model')}>
        <Tooltip title={t('config.model_fixed')}>
          <Select
            disabled
            className="prediction-model-select"
            data-testid="model-select"
            value="engine"
            loading={modelLabel === null}
            options={[{ value: 'engine', label: modelLabel ?? '…' }]}
          />
        </Tooltip>
      </Field>
      <Field label={t('config.confidence')} value={fixed2(values.confidenceThreshold)} testId="confidence">
        <Slider
          min={R.confidence.min}
          max={R.confidence.max}
          step={R.confidence.step}
          value={values.confidenceThreshold}
          onChange={(v) => set('confidenceThreshold', v)}
          aria-label={t('config.confidence')}
        />
      </Field>
      <Collapse
        ghost
        className="prediction-advanced-collapse"
        items={[{ key: 'advanced', label: t('config.advanced'), children: advanced, forceRender: false }]}
      />
    </Card>
  );
}
