import { SettingOutlined } from '@ant-design/icons';
import { Card, Collapse, Radio, Select, Slider, Switch, Tooltip } from 'antd';
import { PARAMETER_RANGES as R } from '@cassavascope/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PredictionParameterValues } from '../api/create-prediction-task';
import { SPECIMEN_KINDS, type LabModelView, type SpecimenKindChoice } from '../../../lib/lab-models';
import { cleanValue, sliderReading } from '../slider-value';

interface Props {
  values: PredictionParameterValues;
  onChange: (values: PredictionParameterValues) => void;
  /** the server's engine label (`/api/status/` engine.label), null while unknown */
  modelLabel: string | null;
  /** the server's engine kind (`colour` or `onnx`), null while unknown */
  engineKind: string | null;
  /** what the photos show */
  specimenKind: SpecimenKindChoice;
  onSpecimenKindChange: (kind: SpecimenKindChoice) => void;
  /** the chosen lab model's id; null: the default engine */
  modelId: number | null;
  onModelChange: (id: number | null) => void;
  /** the lab models a task can score with (ready ones) */
  labModels: LabModelView[];
}

/** The Model select's value of the default engine (a lab model's value is its id). */
const DEFAULT_ENGINE = 'default';

function Field({
  label,
  value,
  children,
  testId,
}: {
  label: string;
  value?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
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

type NumericKey = 'confidenceThreshold' | 'minArea' | 'morphKernelSize' | 'morphIterations' | 'overlayOpacity';

interface SliderSpec {
  key: NumericKey;
  range: keyof typeof R;
  label: string;
  testId: string;
  decimals?: boolean;
}

/**
 * Spec section 5: both confidence sliders set the one confidence threshold (one payload field), each at its own
 * range and step. The value shown beside each (and in the handle's tooltip) is that threshold; a handle only sits
 * on its own slider's grid (snapToStep), so the coarse slider never holds a value off its 0.1 steps.
 */
const MAIN_CONFIDENCE: SliderSpec = {
  key: 'confidenceThreshold',
  range: 'confidence',
  label: 'config.confidence',
  testId: 'confidence',
  decimals: true,
};
const ADVANCED_SLIDERS: SliderSpec[] = [
  {
    key: 'confidenceThreshold',
    range: 'advancedConfidence',
    label: 'config.advanced_confidence',
    testId: 'advanced-confidence',
    decimals: true,
  },
  { key: 'minArea', range: 'minArea', label: 'config.min_area', testId: 'min-area' },
  { key: 'morphKernelSize', range: 'morphKernel', label: 'config.morph_kernel', testId: 'morph-kernel' },
  { key: 'morphIterations', range: 'morphIterations', label: 'config.morph_iterations', testId: 'morph-iterations' },
  {
    key: 'overlayOpacity',
    range: 'overlayOpacity',
    label: 'config.overlay_opacity',
    testId: 'overlay-opacity',
    decimals: true,
  },
];

/**
 * Configuration: the single prediction mode, what the photos show, the model (the default engine, named by the
 * server, or one of the lab's ready models), the confidence slider and the collapsible advanced section with
 * every slider and switch of spec section 5.
 */
export function ConfigurationPanel({
  values,
  onChange,
  modelLabel,
  engineKind,
  specimenKind,
  onSpecimenKindChange,
  modelId,
  onModelChange,
  labModels,
}: Props) {
  const { t } = useTranslation('prediction');
  const set = <K extends keyof PredictionParameterValues>(key: K, value: PredictionParameterValues[K]) =>
    onChange({ ...values, [key]: value });

  const slider = (spec: SliderSpec) => {
    const range = R[spec.range];
    const value = values[spec.key];
    const format = (v: number) => (spec.decimals ? v.toFixed(2) : String(v));
    const reading = sliderReading(value, range);
    return (
      <Field key={spec.testId} label={t(spec.label)} value={format(value)} testId={spec.testId}>
        <Slider
          min={range.min}
          max={range.max}
          step={range.step}
          value={reading.position}
          onChange={(v) => set(spec.key, cleanValue(v))}
          // The handle's tooltip names where the handle is; the field's value (above) is the one threshold.
          tooltip={{ formatter: (v) => (v === undefined ? '' : format(v)) }}
          aria-label={t(spec.label)}
        />
        {reading.note && (
          <small className="prediction-slider-note" data-testid={`${spec.testId}-note`}>
            {t(`config.slider_note.${reading.note}`, {
              value: format(value),
              min: format(range.min),
              max: format(range.max),
              step: format(range.step),
              position: format(reading.position),
            })}
          </small>
        )}
      </Field>
    );
  };

  const advanced = (
    <div className="prediction-advanced">
      {ADVANCED_SLIDERS.map(slider)}
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
          {engineKind === 'colour' && (
            <small className="prediction-tta-idle" data-testid="tta-no-effect">
              {t('config.tta_no_effect')}
            </small>
          )}
        </span>
        <Switch
          checked={values.useTTA}
          onChange={(v) => set('useTTA', v)}
          aria-label={t('config.tta')}
          data-testid="switch-tta"
        />
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
      <Field label={t('config.specimen_kind')} testId="specimen-kind">
        <Radio.Group
          value={specimenKind}
          optionType="button"
          buttonStyle="solid"
          onChange={(e) => onSpecimenKindChange(e.target.value as SpecimenKindChoice)}
          aria-label={t('config.specimen_kind')}
        >
          {SPECIMEN_KINDS.map((kind) => (
            <Radio.Button key={kind} value={kind} data-kind={kind}>
              {t(`config.specimen_kinds.${kind}`)}
            </Radio.Button>
          ))}
        </Radio.Group>
        <small className="prediction-field-hint">{t(`config.specimen_kind_hint.${specimenKind}`)}</small>
      </Field>
      <Field label={t('config.model')}>
        <Tooltip title={labModels.length === 0 ? t('config.model_fixed') : undefined}>
          <Select
            disabled={labModels.length === 0 && modelId === null}
            className="prediction-model-select"
            data-testid="model-select"
            aria-label={t('config.model')}
            value={modelId === null ? DEFAULT_ENGINE : modelId}
            loading={modelLabel === null}
            onChange={(v: number | string) => onModelChange(typeof v === 'number' ? v : null)}
            options={[
              {
                value: DEFAULT_ENGINE,
                label: t('config.model_default', { engine: modelLabel ?? '…' }),
              },
              ...labModels.map((m) => ({ value: m.id, label: t('config.model_lab', { name: m.name }) })),
              // A handed-over model that is no longer ready still shows by its id rather than as a bare number.
              ...(modelId !== null && !labModels.some((m) => m.id === modelId)
                ? [{ value: modelId, label: t('config.model_missing', { id: modelId }) }]
                : []),
            ]}
          />
        </Tooltip>
        {labModels.length === 0 && <small className="prediction-field-hint">{t('config.model_teach_hint')}</small>}
      </Field>
      {slider(MAIN_CONFIDENCE)}
      <Collapse
        ghost
        className="prediction-advanced-collapse"
        items={[{ key: 'advanced', label: t('config.advanced'), children: advanced, forceRender: false }]}
      />
    </Card>
  );
}
