/**
 * Hand-over between two sections (there are no URL routes to carry it): the task details' "Run again with these
 * parameters" leaves the task's parameters here; the Prediction screen starts from them when it opens next.
 */
export interface RerunParameters {
  taskName: string;
  confidenceThreshold: number | null;
  usePostProcessing: boolean;
  useTTA: boolean;
  minArea: number | null;
  morphKernelSize: number | null;
  morphIterations: number | null;
  overlayOpacity: number | null;
}

let pending: RerunParameters | null = null;

export function rerunWithParameters(parameters: RerunParameters): void {
  pending = parameters;
}

/** The parameters handed over, if any (reading does not clear them: render may run twice). */
export function peekRerunParameters(): RerunParameters | null {
  return pending;
}

export function clearRerunParameters(): void {
  pending = null;
}
