import { MODEL_LABEL, MODEL_TYPE, SINGLE_MODEL_TYPE } from '@cassavascope/contract';
import type { TFunction } from 'i18next';

/**
 * Readable names of the model type ids a task may carry (`model_type` / `algorithm`): the one the spec offers
 * (resnet101, labelled "DeepLabV3+ ResNet-101") and the other options its translation texts mention.
 * Model names are proper names: the same in every language.
 */
const MODEL_LABELS: Record<string, string> = {
  [MODEL_TYPE]: MODEL_LABEL,
  [SINGLE_MODEL_TYPE]: MODEL_LABEL,
  deeplabv3plus_resnet50: 'DeepLabV3+ ResNet-50',
  resnet50: 'DeepLabV3+ ResNet-50',
  deeplabv3plus_mobilenet: 'DeepLabV3+ MobileNet',
  mobilenet: 'DeepLabV3+ MobileNet',
};

/** A model type id as people read it; an id not known here is shown as it comes. */
export function modelTypeLabel(modelType: string): string {
  return MODEL_LABELS[modelType.trim().toLowerCase()] ?? modelType;
}

/**
 * Engine labels the server sends that are descriptions rather than proper names, with their text key in
 * common.json (`engines.*`); a model's own name (e.g. an ONNX sidecar's "DeepLabV3+ ResNet-101") is shown as sent.
 */
const ENGINE_LABEL_KEYS: Record<string, string> = {
  'colour segmentation (cielab)': 'engines.colour',
};

/** How the server labels a task scored with a lab model (contract `labModelLabel`): "Lab model: NAME". */
const LAB_MODEL_LABEL = /^Lab model: (.+)$/s;

/** An engine label (`/api/status/` engine.label, a task's `engine_label`) in the UI's language. */
export function engineLabelText(label: string, t: TFunction): string {
  const lab = LAB_MODEL_LABEL.exec(label.trim());
  if (lab) return t('engines.lab_model', { ns: 'common', name: lab[1] });
  const key = ENGINE_LABEL_KEYS[label.trim().toLowerCase()];
  return key ? t(key, { ns: 'common' }) : label;
}

/**
 * The model of a task as the screens show it: the label of the engine that scores it (`engine_label`) when the
 * server sends one, else the readable name of its model type id, else the id itself.
 */
export function taskModelLabel(task: { engineLabel: string | null; modelType: string }, t: TFunction): string {
  const engine = task.engineLabel?.trim();
  return engine ? engineLabelText(engine, t) : modelTypeLabel(task.modelType);
}
