import type { EngineInfo, PredictionParameters, Severity } from '@cassavascope/contract';
import type { AnalyseOptions } from './learned/lab-model-api.js';

/**
 * The engine's public interface. Server (tasks, predict_single) and CLI depend only on this.
 * Both engines (colour, ONNX) implement it; both run off the main thread in a worker pool.
 */

/** The spec's prediction parameters minus queue-only ones; every field optional (spec defaults apply). */
export type AnalysisParams = Omit<PredictionParameters, 'split_count'>;

/** A rectangle in original-image pixels (after EXIF orientation). */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What to compute: `cuts` = first segmentation only (specimens + crops); `full` = cuts + lesions + PPD;
 * `proposal` = `full` plus `images.proposal`, the engine's own per-pixel classes of the whole photo as a label
 * image (what the label painter offers to accept region by region).
 */
export type AnalysisMode = 'cuts' | 'full' | 'proposal';

/** What a specimen is: a cut root slice (flesh scored, peel excluded) or a detached leaf on a plain background. */
export type SpecimenKind = 'root_slice' | 'leaf';

/** One specimen the engine found, in reading order (rows top to bottom, then left to right). */
export interface SpecimenResult {
  /** 1-based position in reading order; cut2_<index> / pred_<index> are its images */
  index: number;
  kind: SpecimenKind;
  /** in original-image pixels after EXIF orientation */
  box: Box;
  /** discoloured share x 10, 2 decimals; null in `cuts` mode */
  ppd: number | null;
  /** 0-1: how far this specimen's reading can be trusted (kind, outline, lesion decisions); null in `cuts` mode */
  confidence: number | null;
  /** low confidence or uncertain kind: a person should look */
  needs_review: boolean;
}

export interface AnalysisResult {
  /** mean of sub_ppd_values, 2 decimals, 0-10 scale; null when the image could not be scored */
  ppd_value: number | null;
  /** one per specimen, 2 decimals, in the order of `specimens` */
  sub_ppd_values: number[];
  /** every specimen's box, in the order of `specimens` (kept for callers that only need the boxes) */
  cuts: Box[];
  /** every specimen found, 1..N in reading order; empty when the image could not be scored */
  specimens: SpecimenResult[];
  /** true when any specimen needs review */
  needs_review: boolean;
  prediction: Severity | null;
  /** area-weighted mean of the specimens' confidence, 0-1 */
  confidence: number | null;
  /** seconds spent on this image */
  processing_time: number;
  /** encoded WebP images: cut2[i] = crop of specimen i, pred[i] = crop with lesion overlay, overview = whole photo with numbered boxes */
  images: {
    cut2: Buffer[];
    pred: Buffer[];
    overview: Buffer | null;
    /**
     * `proposal` mode only (else absent or null): an 8-bit grey PNG at the engine's working size (longest side
     * at most 1024 px; scale it to the photo), one label value a pixel as in `LABEL`: 1 background, 2 healthy,
     * 3 discoloured, 4 not scored (peel, bark).
     */
    proposal?: Buffer | null;
  };
  /**
   * e.g. decode_failed, no_specimen_found, not_a_specimen_photo, invalid_parameters; null on success. A refused
   * photo still has its overview image (what was seen).
   */
  error_code: string | null;
  error_message: string | null;
  /** per-stage seconds (decode, first, second, render) for benchmarks */
  timings: Record<string, number>;
}

export interface Engine {
  readonly info: EngineInfo;
  /** Never throws for a bad image: the result carries error_code instead. */
  analyse(
    input: Buffer | string,
    params?: Partial<AnalysisParams>,
    mode?: AnalysisMode,
    options?: AnalyseOptions,
  ): Promise<AnalysisResult>;
  close(): Promise<void>;
}

export interface EngineOptions {
  /** ONNX model path (with `<model>.json` sidecar); absent = colour engine */
  modelPath?: string | undefined;
  /** worker threads; default = available cores */
  workers?: number | undefined;
  /** a job running longer is abandoned (error_code engine_timeout) and its worker replaced; default 60 s (colour), 600 s (ONNX) */
  jobTimeoutMs?: number | undefined;
}
