/**
 * The public shape of lab models (api.md, "Labels and lab models"): what the server and the CLI call.
 * Implementations live beside this file (features, training, the portable file, scoring with a model).
 */

/** Label image values: 0 unlabelled, 1 background, 2 healthy tissue, 3 discoloured tissue, 4 not scored. */
export const LABEL = { unlabelled: 0, background: 1, healthy: 2, lesion: 3, excluded: 4 } as const;
export type LabelValue = (typeof LABEL)[keyof typeof LABEL];

/** A decoded label image at the photo's size as shown (after EXIF orientation), one byte a pixel. */
export interface LabelImage {
  width: number;
  height: number;
  values: Uint8Array;
}

export interface LabelledPixelCounts {
  background: number;
  healthy: number;
  lesion: number;
  excluded: number;
}

/** One labelled photo handed to training: the photo's bytes and its labels. */
export interface LabelledPhoto {
  /** the library's image id (reported back in `heldout`) */
  id: string;
  name?: string;
  image: Uint8Array;
  labels: LabelImage;
}

export interface LabModelMetrics {
  pixel_accuracy: number;
  lesion_iou: number;
  ppd_mae: number;
  baseline_ppd_mae: number;
}

/** One labelled photo the model did not train on (a leave-one-photo-out or held-out fold): for before/after views. */
export interface HeldOutPhoto {
  id: string;
  /** PPD of the labels (labelled lesion / labelled tissue x 10) */
  labels_ppd: number;
  model_ppd: number;
  baseline_ppd: number;
  /** WebP: the photo with the lab model's lesion overlay / the default engine's */
  model_overlay: Buffer;
  baseline_overlay: Buffer;
}

export interface TrainedLabModel {
  /** the portable model file (format in docs/model.md), what GET /models/{id}/file/ serves */
  file: Buffer;
  metrics: LabModelMetrics | null;
  labelled_pixels: LabelledPixelCounts;
  image_count: number;
  heldout: HeldOutPhoto[];
}

export interface TrainOptions {
  name: string;
  /** 0-100 */
  onProgress?: (percent: number) => void;
  /** aborting rejects with an AbortError and stops the work */
  signal?: AbortSignal;
  /** trees of the model (default 24; the validation folds' models use at most 10): fewer train faster */
  trees?: number;
  /** the random draws' seed (default 1): the same photos and seed give the same model */
  seed?: number;
}

/** What the engine is told per image beside the spec's parameters. */
export interface AnalyseOptions {
  /** what the photos show; `auto` (default) lets the engine decide per specimen */
  specimenKind?: 'auto' | 'root_slice' | 'leaf';
  /** a lab model's file (as from `TrainedLabModel.file`), cached in the workers by id */
  labModel?: { id: string; file: Uint8Array };
}
