import type { EngineInfo, PredictionParameters, Severity } from '@cassavascope/contract';

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

/** What to compute: `cuts` = first segmentation only (specimens + crops); `full` = cuts + lesions + PPD. */
export type AnalysisMode = 'cuts' | 'full';

export interface AnalysisResult {
  /** mean of sub_ppd_values, 2 decimals, 0-10 scale; null when the image could not be scored */
  ppd_value: number | null;
  /** one per cut (up to 3), 2 decimals, in the order of `cuts` */
  sub_ppd_values: number[];
  /** the kept specimens, largest three, in reading order */
  cuts: Box[];
  prediction: Severity | null;
  /** mean certainty of the pixel decisions, 0-1 */
  confidence: number | null;
  /** seconds spent on this image */
  processing_time: number;
  /** encoded WebP images: cut2[i] = crop of specimen i, pred[i] = crop with lesion overlay, overview = whole photo with numbered boxes */
  images: { cut2: Buffer[]; pred: Buffer[]; overview: Buffer | null };
  /** e.g. decode_failed, no_specimen_found, invalid_parameters; null on success */
  error_code: string | null;
  error_message: string | null;
  /** per-stage seconds (decode, first, second, render) for benchmarks */
  timings: Record<string, number>;
}

export interface Engine {
  readonly info: EngineInfo;
  /** Never throws for a bad image: the result carries error_code instead. */
  analyse(input: Buffer | string, params?: Partial<AnalysisParams>, mode?: AnalysisMode): Promise<AnalysisResult>;
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
