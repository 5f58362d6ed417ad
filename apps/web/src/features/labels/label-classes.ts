/**
 * The label values of api.md ("Labels and lab models"): 0 unlabelled, then the four classes a researcher paints.
 * One colour per class, chosen to stay apart on cassava flesh, peel, leaves and the usual boards.
 */
export const LABEL_CLASSES = [
  { value: 1, key: 'background', colour: [66, 133, 244] },
  { value: 2, key: 'healthy', colour: [52, 199, 89] },
  { value: 3, key: 'lesion', colour: [230, 35, 60] },
  { value: 4, key: 'excluded', colour: [255, 184, 0] },
] as const;

export type LabelValue = 0 | 1 | 2 | 3 | 4;
export type ClassKey = (typeof LABEL_CLASSES)[number]['key'];

export const cssColour = (value: number): string => {
  const c = LABEL_CLASSES.find((k) => k.value === value)?.colour ?? [0, 0, 0];
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
};

/** The painter works on a grid no longer than this on its long side (the server scales labels to the photo). */
export const MAX_GRID_SIDE = 2048;

/** The label grid for a photo of this size: the photo scaled down to MAX_GRID_SIDE, never up. */
export function gridSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_GRID_SIDE / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
