import { useEffect, useState } from 'react';

/**
 * Parameters the task details hand to the Prediction screen: "Run again with these parameters" (the task's name,
 * parameters, specimen kind and model), and "Score again with this model" (the same, the chosen model and the
 * task's images).
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

/** Every hand-over between two sections, by key, with what it carries. */
export interface HandOvers {
  /** a folder card (Folders) or the sample set (Home) -> Images: the folder to open on */
  imagesFolder: number;
  /** "View results" (Tasks, Home) -> Results: the task to select */
  resultsTask: number;
  /** task details (Tasks) -> Prediction: the parameters to start from */
  rerunParameters: RerunParameters;
}

export type HandOverKey = keyof HandOvers;

// One slot per key, outside React: the section that hands over unmounts before the one that takes it mounts.
const pending: { [K in HandOverKey]?: HandOvers[K] } = {};

/**
 * Leaves `value` for the section that opens next (there are no URL routes to carry it); a later hand-over under
 * the same key replaces it.
 */
export function handOver<K extends HandOverKey>(key: K, value: HandOvers[K]): void {
  pending[key] = value;
}

/** What was handed over under `key`, if anything; reading does not clear it (render may run twice). */
export function peekHandOver<K extends HandOverKey>(key: K): HandOvers[K] | null {
  return pending[key] ?? null;
}

/** Drops the hand-over under `key` (taken, or no longer wanted). */
export function clearHandOver(key: HandOverKey): void {
  delete pending[key];
}

/**
 * The hand-over under `key` as the section found it when it mounted (null when there was none): read once, kept
 * for the life of the component, and cleared after the first commit, so it is taken once and a later visit starts
 * from the section's defaults.
 */
export function useHandOver<K extends HandOverKey>(key: K): HandOvers[K] | null {
  const [value] = useState(() => peekHandOver(key));
  useEffect(() => clearHandOver(key), [key]);
  return value;
}
