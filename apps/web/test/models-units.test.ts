import { describe, expect, it } from 'vitest';
import i18n from '../src/lib/i18n';
import { buildPredictionPayload } from '../src/features/prediction/api/create-prediction-task';
import { DEFAULT_PARAMETER_VALUES } from '../src/features/prediction/default-parameters';
import { verdictOf } from '../src/features/models/model-verdict';
import { normalizeLabModel, parseSpecimenKind, readyLabModels } from '../src/lib/lab-models';
import { engineLabelText } from '../src/lib/model-label';
import { normalizeTask } from '../src/lib/normalize-task';

/** Issues 22 and 23, web side: what the screens read of lab models and send with a task. */
describe('lab models in the web app', () => {
  it('reads a model of api.md, and an incomplete one safely', () => {
    const m = normalizeLabModel({
      id: 4,
      name: 'Tray slices',
      status: 'ready',
      progress: 100,
      created_time: '2026-11-27T05:00:00.000Z',
      created_by: { id: 2, username: 'ana' },
      image_count: 5,
      labelled_pixels: { background: 10, healthy: 20, lesion: 5, excluded: 1 },
      metrics: { pixel_accuracy: 0.95, lesion_iou: 0.8, ppd_mae: 0.3, baseline_ppd_mae: 0.5 },
      error_message: null,
      heldout: [
        {
          image_id: 9,
          labels_ppd: 3,
          model_ppd: 3.2,
          baseline_ppd: 4,
          model_overlay_url: '/media/a.webp',
          baseline_overlay_url: null,
        },
      ],
      file_size: 12_345,
    });
    expect(m).toMatchObject({
      id: 4,
      createdBy: 'ana',
      imageCount: 5,
      labelledPixels: { background: 10, healthy: 20, lesion: 5, excluded: 1 },
      metrics: { pixelAccuracy: 0.95, lesionIou: 0.8, ppdMae: 0.3, baselinePpdMae: 0.5 },
      fileSize: 12_345,
    });
    expect(m.heldout).toEqual([
      {
        imageId: 9,
        labelsPpd: 3,
        modelPpd: 3.2,
        baselinePpd: 4,
        modelOverlayUrl: '/media/a.webp',
        baselineOverlayUrl: null,
      },
    ]);
    const bare = normalizeLabModel({ id: 1, status: 'training', progress: 140 });
    expect(bare).toMatchObject({ progress: 100, metrics: null, heldout: [], fileSize: null, createdBy: null });
    expect(readyLabModels([m, bare]).map((x) => x.id)).toEqual([4]);
  });

  it('says plainly whether the lab model beats the default engine', () => {
    const metrics = (ppdMae: number | null, baselinePpdMae: number | null) => ({
      pixelAccuracy: 0.9,
      lesionIou: 0.7,
      ppdMae,
      baselinePpdMae,
    });
    expect(verdictOf(metrics(0.3, 0.9))).toBe('better');
    expect(verdictOf(metrics(1.4, 0.9))).toBe('worse');
    expect(verdictOf(metrics(0.52, 0.5))).toBe('same');
    expect(verdictOf(metrics(null, 0.5))).toBe('unknown');
    expect(verdictOf(null)).toBe('unknown');
  });

  it('sends specimen_kind and model_id only when they are not the defaults', () => {
    const base = { name: 'T', parameters: DEFAULT_PARAMETER_VALUES, imageIds: [1], folderIds: [] };
    const plain = buildPredictionPayload({ ...base, specimenKind: 'auto', modelId: null });
    expect(plain).not.toHaveProperty('specimen_kind');
    expect(plain).not.toHaveProperty('model_id');
    expect(buildPredictionPayload({ ...base, specimenKind: 'leaf', modelId: 7 })).toMatchObject({
      specimen_kind: 'leaf',
      model_id: 7,
    });
    expect(parseSpecimenKind('root_slice')).toBe('root_slice');
    expect(parseSpecimenKind('tuber')).toBe('auto');
  });

  it("reads a task's specimen kind and model, and names a lab model in both languages", async () => {
    const task = normalizeTask({ id: 1, specimen_kind: 'leaf', model_id: 3, engine_label: 'Lab model: Tray 托盘' });
    expect(task).toMatchObject({ specimenKind: 'leaf', modelId: 3 });
    expect(normalizeTask({ id: 2 })).toMatchObject({ specimenKind: 'auto', modelId: null });
    await i18n.changeLanguage('en');
    expect(engineLabelText('Lab model: Tray 托盘', i18n.t)).toBe('Lab model: Tray 托盘');
    await i18n.changeLanguage('zh');
    expect(engineLabelText('Lab model: Tray 托盘', i18n.t)).toBe('实验室模型：Tray 托盘');
    expect(engineLabelText('Colour segmentation (CIELAB)', i18n.t)).toBe(i18n.t('common:engines.colour'));
    await i18n.changeLanguage('en');
  });
});
