import type { AnalyseOptions } from '../learned/lab-model-api.js';
import type { AnalysisMode, AnalysisParams, AnalysisResult } from '../types.js';

/** What a pool worker is started with. */
export interface WorkerSetup {
  /** ONNX model path; absent = colour engine */
  modelPath?: string | undefined;
}

export interface AnalyseRequest {
  type: 'analyse';
  id: number;
  /** bytes (transferred) or a file path the worker reads itself */
  input: Uint8Array | string;
  params: AnalysisParams;
  mode: AnalysisMode;
  /** specimen kind, lab model (its file bytes are copied, the worker keeps parsed models by id) */
  options: AnalyseOptions;
}

export type WorkerReply =
  { type: 'ready' } | { type: 'init_error'; message: string } | { type: 'result'; id: number; result: AnalysisResult };
