import { describe, expect, it } from 'vitest';
import { PARAMETER_RANGES, TASK_NAME_MAX } from '@cassavascope/contract';
import { buildPredictionPayload } from '../src/features/prediction/api/create-prediction-task';
import { estimatedSeconds } from '../src/features/prediction/estimate';
import { DEFAULT_PARAMETER_VALUES } from '../src/features/prediction/default-parameters';
import { defaultTaskName, taskSubject } from '../src/features/prediction/default-task-name';
import i18n from '../src/lib/i18n';
import { cleanValue, sliderReading, snapToStep } from '../src/features/prediction/slider-value';

describe('prediction task payload (spec section 7)', () => {
  it('has exactly the listed fields with the spec defaults', () => {
    const payload = buildPredictionPayload({
      name: '  Trial A  ',
      parameters: DEFAULT_PARAMETER_VALUES,
      imageIds: [3, 1],
      folderIds: [],
    });
    expect(payload).toEqual({
      name: 'Trial A',
      type: 'prediction',
      algorithm: 'deeplabv3plus_resnet101',
      threshold: 0.5,
      min_size: 100,
      method: 'post',
      split_count: 32,
      morph_kernel_size: 5,
      morph_iterations: 1,
      use_tta: false,
      overlay_opacity: 0.3,
      image_ids: [3, 1],
      single_model_type: 'resnet101',
    });
  });

  it('sends folder_ids, drops empty id lists, and says method none when post-processing is off', () => {
    const payload = buildPredictionPayload({
      name: 'B',
      parameters: {
        ...DEFAULT_PARAMETER_VALUES,
        usePostProcessing: false,
        useTTA: true,
        minArea: 250,
        morphKernelSize: 7,
      },
      imageIds: [],
      folderIds: [4],
    });
    expect(payload).not.toHaveProperty('image_ids');
    expect(payload).toMatchObject({
      folder_ids: [4],
      method: 'none',
      use_tta: true,
      min_size: 250,
      morph_kernel_size: 7,
    });
    expect(Object.values(payload).some((v) => v === null || v === undefined)).toBe(false);
  });

  it('defaults follow spec section 5: post-processing on, TTA off, slider defaults', () => {
    expect(DEFAULT_PARAMETER_VALUES).toEqual({
      confidenceThreshold: PARAMETER_RANGES.confidence.default,
      usePostProcessing: true,
      useTTA: false,
      minArea: 100,
      morphKernelSize: 5,
      morphIterations: 1,
      overlayOpacity: 0.3,
    });
  });
});

describe('prediction summary and task name', () => {
  it('estimated time is images x 0.3 s rounded up', () => {
    expect(estimatedSeconds(0)).toBe(0);
    expect(estimatedSeconds(1)).toBe(1);
    expect(estimatedSeconds(10)).toBe(3);
    expect(estimatedSeconds(11)).toBe(4);
    expect(estimatedSeconds(1000)).toBe(300);
  });

  it('default name is what it scores plus the local date-time, within 50 characters', () => {
    const name = defaultTaskName('Trial A', new Date(2026, 10, 22, 9, 5, 7));
    expect(name).toBe('Trial A 2026-11-22 09:05:07');
    const long = defaultTaskName('x'.repeat(60), new Date(2026, 10, 22, 9, 5, 7));
    expect(long.length).toBe(TASK_NAME_MAX);
    expect(long.endsWith(' 2026-11-22 09:05:07')).toBe(true);
  });

  it('names what the task scores (issue 25 item 9), in English and in Chinese', () => {
    const en = i18n.getFixedT('en', 'prediction');
    const zh = i18n.getFixedT('zh', 'prediction');
    const pick = (folderNames: string[], looseImages: number, specimenKind = 'auto') => ({
      folderNames,
      looseImages,
      specimenKind,
    });
    expect(taskSubject(en, pick(['Trial A'], 0))).toBe('Trial A');
    expect(taskSubject(zh, pick(['Trial A'], 0, 'leaf'))).toBe('Trial A');
    expect(taskSubject(en, pick(['Trial A', 'Trial B'], 3))).toBe('Trial A and 4 more');
    expect(taskSubject(zh, pick(['Trial A', 'Trial B'], 0))).toBe('Trial A 及另外 1 项');
    expect(taskSubject(en, pick([], 5, 'root_slice'))).toBe('Root slices');
    expect(taskSubject(zh, pick([], 5, 'root_slice'))).toBe('根切片');
    expect(taskSubject(en, pick([], 1))).toBe('1 photo');
    expect(taskSubject(en, pick([], 12))).toBe('12 photos');
    expect(taskSubject(zh, pick([], 12))).toBe('12 张照片');
    expect(taskSubject(en, pick([], 0))).toBe('Prediction');
    expect(taskSubject(zh, pick([], 0))).toBe('预测任务');
  });
});

describe('confidence sliders', () => {
  const main = PARAMETER_RANGES.confidence;
  const fine = PARAMETER_RANGES.advancedConfidence;
  it("a handle sits on its own slider's grid; the value itself is not changed", () => {
    expect(snapToStep(0.55, main)).toBe(0.6);
    expect(snapToStep(0.45, main)).toBe(0.5);
    expect(snapToStep(0.5, main)).toBe(0.5);
    expect(snapToStep(0.3, main)).toBe(0.3);
    expect(snapToStep(0.55, fine)).toBe(0.55);
    expect(snapToStep(1, fine)).toBe(0.9);
    expect(snapToStep(0.05, main)).toBe(0.1);
    expect(snapToStep(150, PARAMETER_RANGES.minArea)).toBe(150);
    expect(snapToStep(7, PARAMETER_RANGES.morphKernel)).toBe(7);
    expect(cleanValue(0.1 + 0.2)).toBe(0.3);
  });
});

describe('both confidence sliders tell the truth about the one value (issue 15 item 7)', () => {
  const main = PARAMETER_RANGES.confidence;
  const fine = PARAMETER_RANGES.advancedConfidence;
  it('says when a handle cannot sit on the value', () => {
    expect(sliderReading(1, fine)).toEqual({ position: 0.9, note: 'above' });
    expect(sliderReading(1, main)).toEqual({ position: 1, note: null });
    expect(sliderReading(0.55, main)).toEqual({ position: 0.6, note: 'between' });
    expect(sliderReading(0.55, fine)).toEqual({ position: 0.55, note: null });
    expect(sliderReading(0.05, fine)).toEqual({ position: 0.1, note: 'below' });
  });
});
