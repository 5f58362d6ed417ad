/**
 * Hand-over between two sections (there are no URL routes to carry it): the task details' "Run again with these
 * parameters" leaves the task's parameters here; the Prediction screen starts from them when it opens next.
 * "Score again with this model" also hands over the task's images, its specimen kind and the chosen model.
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
  /** what the task's photos show (`specimen_kind`); absent: auto */
  specimenKind?: string;
  /** the model to score with: a lab model's id, null for the default engine; absent: the default */
  modelId?: number | null;
  /** the images to pick at once ("Score again with this model"); absent: the user picks */
  imageIds?: number[];
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
